/**
 * Watch-list under churn, on etcd: an informer that syncs only through watch-list requests
 * (as client-go's reflector with WatchListClient) stays exact while ConfigMaps are created,
 * patched and deleted, watches end every 2-4 s and history is compacted every second. Through
 * the watch cache (the default) it resumes from the cache's window; without it
 * (--watch-cache=false) resuming meets 410 and it must sync again.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { E2E_TOKEN, type ServerProcess } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';
import { startWatchListInformer } from '../helpers/watch-list-informer.js';

const NS = 'watchlist';
const path = `/api/v1/namespaces/${NS}/configmaps`;

for (const cached of [true, false]) {
  describe(cached ? 'through the watch cache' : 'without a watch cache', () => {
    const started = serversOnEtcd(1, [
      '--min-request-timeout=2',
      '--etcd-compaction-interval=1s',
      `--watch-cache=${cached}`,
    ]);
    let api: Client;
    let agent: Agent;
    beforeAll(async () => {
      api = clientFor(started.servers[0]);
      agent = new Agent({ connect: { ca: started.servers[0].caPem } });
      expect((await api.call('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    });
    afterAll(async () => {
      await api?.close();
      await agent?.close();
    });
    it(`a watch-list informer matches the server after churn, watch timeouts${cached ? '' : ' and 410s'}`, () =>
      scenario(started.servers[0], api, agent, cached));
  });
}

async function scenario(server: ServerProcess, api: Client, agent: Agent, throughCache: boolean): Promise<void> {
  for (let i = 0; i < 20; i++) await api.call('POST', path, { metadata: { name: `pre-${i}` }, data: { n: 'pre' } });
  const informer = startWatchListInformer(server.url, path, E2E_TOKEN, agent);
  try {
    const live = new Set([...Array(20).keys()].map((i) => `pre-${i}`));
    for (let round = 0; round < 2; round++) {
      for (let n = round * 300; n < (round + 1) * 300; n++) {
        const names = [...live];
        if (n % 3 === 0 || names.length < 10) {
          if ((await api.call('POST', path, { metadata: { name: `cm-${n}` }, data: { n: String(n) } })).status === 201)
            live.add(`cm-${n}`);
        } else if (n % 3 === 1) {
          await api.call(
            'PATCH',
            `${path}/${names[n % names.length]}`,
            { data: { n: String(n) } },
            'application/merge-patch+json',
          );
        } else if ((await api.call('DELETE', `${path}/${names[n % names.length]}`)).status === 200)
          live.delete(names[n % names.length]);
      }
      // Quiet: compaction passes the informer's resourceVersion. Without the cache, its next
      // watch meets 410 and it syncs again; wait for that (bounded: a loaded machine may take
      // longer than the usual 4-6 s) so the churn below runs against the resynced informer.
      if (round === 0) await quiet(6000, throughCache ? undefined : () => informer.syncs() >= 2);
    }
    await api.call('POST', path, { metadata: { name: 'zz-sentinel' }, data: { n: 'end' } });
    const truth = await api.call('GET', path);
    const expected = Object.fromEntries(truth.body.items.map((i: any) => [i.metadata.name, i.data?.n ?? null]));
    const deadline = Date.now() + 30_000;
    while (!informer.cache.has('zz-sentinel') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const cached = Object.fromEntries([...informer.cache.values()].map((o) => [o.metadata.name, o.data?.n ?? null]));
    expect(cached).toEqual(expected);
    // Without the cache it synced again after a 410; through it, it resumed from its window.
    if (!throughCache) expect(informer.syncs()).toBeGreaterThanOrEqual(2);
  } finally {
    informer.stop();
  }
}

/** Wait `ms`, or without a cache until `done()` holds (30 s at most). */
async function quiet(ms: number, done?: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  await new Promise((r) => setTimeout(r, ms));
  while (done && !done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

/**
 * etcd stops answering (`docker pause`: connections stay open, nothing answers): requests fail
 * within 5 s with 503/504 Status (never hang), open watches end within 15 s with one ERROR event,
 * `/readyz` reports it while `/livez` stays ok, the process stays up; once etcd is back,
 * requests succeed within 5 s and a watch resumed from the last resourceVersion its client saw
 * misses nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { startEtcd, type StartedEtcd } from '../helpers/etcd.js';
import { run } from '../helpers/run.js';
import { E2E_TOKEN, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const PATH = '/api/v1/namespaces/default/configmaps';
let etcd: StartedEtcd;
let server: ServerProcess;
let api: Client;
beforeAll(async () => {
  etcd = await startEtcd();
  server = await startServerProcess([etcd.endpoint]);
  api = clientFor(server);
});
afterAll(async () => {
  await api?.close();
  await server?.stop();
  await run('docker', ['unpause', etcd.container.getId()]);
  await etcd?.stop();
});

const pause = async () => expect((await run('docker', ['pause', etcd.container.getId()])).code).toBe(0);
const unpause = () => run('docker', ['unpause', etcd.container.getId()]);

/** HTTP status of a public health path, and how long it took (ms). */
async function health(path: string): Promise<{ code: string; ms: number }> {
  const started = Date.now();
  const res = await run('curl', [
    '-sk',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '--max-time',
    '10',
    `${server.url}${path}`,
  ]);
  return { code: res.stdout, ms: Date.now() - started };
}

/** Repeat `call` until it answers `status`; resolves how long that took (ms), or fails after 15 s. */
async function untilStatus(call: () => Promise<{ status: number }>, status: number): Promise<number> {
  const started = Date.now();
  let last = 0;
  while (Date.now() - started < 15_000) {
    last = (await call()).status;
    if (last === status) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`still ${last} after 15 s`);
}

it('answers 503/504 within 5 s while etcd is unreachable, fails /readyz but not /livez, and recovers within 5 s', async () => {
  expect((await api.call('POST', PATH, { metadata: { name: 'before' } })).status).toBe(201);
  const writes: Record<string, number> = {};
  await pause();
  try {
    for (const [method, path, body] of [
      ['GET', PATH, undefined],
      // Right after a call timed out, while the server checks the connection: a write sent now
      // reaches etcd's socket and is applied once etcd resumes, so it must not answer 503.
      ['POST', PATH, { metadata: { name: 'during' } }],
      ['GET', `${PATH}/before`, undefined],
      ['PUT', `${PATH}/before`, { metadata: { name: 'before' }, data: { a: '1' } }],
      ['DELETE', `${PATH}/before`, undefined],
    ] as const) {
      const started = Date.now();
      const res = await api.call(method, path, body);
      const ms = Date.now() - started;
      console.log(`paused etcd: ${method} ${path} -> ${res.status} in ${ms} ms`);
      expect(ms, `${method} ${path}`).toBeLessThan(5_000);
      expect([503, 504]).toContain(res.status);
      expect(res.body).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: expect.stringMatching(/^(ServiceUnavailable|Timeout)$/),
      });
      expect(res.body.details.retryAfterSeconds).toBeGreaterThan(0);
      if (method !== 'GET') writes[method] = res.status;
    }
    const ready = await health('/readyz');
    expect(ready.code).toBe('500');
    expect(ready.ms).toBeLessThan(5_000);
    const live = await health('/livez');
    expect(live).toMatchObject({ code: '200' });
    expect(live.ms).toBeLessThan(1_000);
    expect(server.child.exitCode).toBeNull();
  } finally {
    await unpause();
  }
  const recovery = await untilStatus(() => api.call('GET', `${PATH}/before`), 200);
  console.log(`etcd back: first 200 after ${recovery} ms`);
  expect(recovery).toBeLessThan(5_000);
  expect((await health('/readyz')).code).toBe('200');
  // A write that timed out (504) has an unknown outcome, as upstream: it may or may not have
  // landed. One refused as unavailable (503) must not have: a client takes it as not written.
  const during = await api.call('GET', `${PATH}/during`);
  const before = await api.call('GET', `${PATH}/before`);
  console.log(
    `paused etcd: writes answered ${JSON.stringify(writes)}; afterwards during=${during.status} before=${before.status} ${JSON.stringify(before.body.data ?? null)}`,
  );
  if (writes.POST === 503) expect(during.status).toBe(404);
  if (writes.DELETE === 503) expect(before.status).toBe(200);
  if (writes.PUT === 503 && before.status === 200) expect(before.body.data?.a).toBeUndefined();
});

it('ends open watches within 15 s of etcd pausing; a watch resumed from the last resourceVersion seen misses nothing', async () => {
  const watchPath = `${PATH}?watch=true&labelSelector=suite%3Dwatch-pause`;
  const watch = await openWatch(`${server.url}${watchPath}`, E2E_TOKEN, api.agent);
  expect(watch.status).toBe(200);
  const created = await api.call('POST', PATH, {
    metadata: { name: 'watched-a', labels: { suite: 'watch-pause' } },
    data: { v: '1' },
  });
  expect(created.status).toBe(201);
  const [added] = await watch.next(1);
  expect(added).toMatchObject({
    type: 'ADDED',
    object: { metadata: { name: 'watched-a', resourceVersion: created.body.metadata.resourceVersion } },
  });
  const lastSeen = added!.object.metadata.resourceVersion as string;

  await pause();
  const pausedAt = Date.now();
  let endedAfter: number;
  let errorEvent: { type: string; object: any } | undefined;
  try {
    await Promise.race([watch.ended, new Promise((r) => setTimeout(r, 20_000))]);
    endedAfter = Date.now() - pausedAt;
    errorEvent = (await watch.next(1, 100).catch(() => []))[0];
  } finally {
    watch.close();
    await unpause();
  }
  console.log(`paused etcd: watch ended after ${endedAfter} ms with ${JSON.stringify(errorEvent)}`);
  expect(endedAfter).toBeGreaterThanOrEqual(0);
  expect(endedAfter).toBeLessThan(15_000);
  expect(errorEvent).toMatchObject({ type: 'ERROR', object: { kind: 'Status', status: 'Failure' } });
  expect([503, 504]).toContain(errorEvent!.object.code);

  // etcd is back within 5 s; B is written and A changed while nobody watched.
  expect(await untilStatus(() => api.call('GET', PATH), 200)).toBeLessThan(5_000);
  const createdB = await api.call('POST', PATH, {
    metadata: { name: 'watched-b', labels: { suite: 'watch-pause' } },
    data: { v: '1' },
  });
  expect(createdB.status).toBe(201);
  const updated = await api.call('PUT', `${PATH}/watched-a`, {
    metadata: { name: 'watched-a', labels: { suite: 'watch-pause' } },
    data: { v: '2' },
  });
  expect(updated.status).toBe(200);
  const resumed = await openWatch(`${server.url}${watchPath}&resourceVersion=${lastSeen}`, E2E_TOKEN, api.agent);
  try {
    const events = await resumed.next(2);
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.data])).toEqual([
      ['ADDED', 'watched-b', { v: '1' }],
      ['MODIFIED', 'watched-a', { v: '2' }],
    ]);
    expect(events[1]!.object.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
    await expect(resumed.next(1, 1000)).rejects.toThrow(/timed out/);
  } finally {
    resumed.close();
  }
});

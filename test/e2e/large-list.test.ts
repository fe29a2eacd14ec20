/**
 * Lists larger than gRPC's default 4 MiB message limit work: an unpaged list of 50 ConfigMaps
 * of 100 KiB each (about 5 MiB from etcd in one range response) answers 200 with all of them,
 * as upstream does (etcd's Go client receives up to math.MaxInt32 bytes).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const state = serversOnEtcd(1);
let api: Client;
beforeAll(() => {
  api = clientFor(state.servers[0]!);
});
afterAll(async () => api?.close());

it('answers an unpaged list over 4 MiB with every item', async () => {
  const path = '/api/v1/namespaces/default/configmaps';
  const payload = 'x'.repeat(100 * 1024);
  for (let i = 0; i < 50; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        api.call('POST', path, { metadata: { name: `big-${i + j}` }, data: { payload, n: String(i + j) } }),
      ),
    );
    expect(batch.map((r) => r.status)).toEqual(Array(10).fill(201));
  }
  const res = await api.call('GET', path);
  expect(res.status, JSON.stringify(res.body?.message)).toBe(200);
  expect(res.body.items).toHaveLength(50);
  const names = res.body.items.map((item: any) => item.metadata.name).sort();
  expect(names).toEqual(Array.from({ length: 50 }, (_, i) => `big-${i}`).sort());
  for (const item of res.body.items) expect(item.data.payload).toHaveLength(100 * 1024);
  // And across all namespaces.
  const all = await api.call('GET', '/api/v1/configmaps');
  expect(all.status).toBe(200);
  expect(all.body.items.filter((item: any) => item.metadata.name.startsWith('big-'))).toHaveLength(50);
});

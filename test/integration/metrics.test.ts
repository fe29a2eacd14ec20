// /metrics as Prometheus sees it after a few requests: stored objects per resource, storage
// latency, database size, long-running watches, response sizes, SLI latency, terminations and
// the watch caches.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ maxRequestsInflight: 1, enablePriorityAndFairness: false });
});
afterAll(() => srv?.stop());

/** The value of one sample, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
const metrics = async () => (await srv.api('GET', '/metrics')).text;

describe('/metrics', () => {
  it('counts stored objects per resource and times storage calls', async () => {
    for (const name of ['a', 'b', 'c'])
      expect((await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 5100)); // the storage gauges refresh at most every 5 s
    const text = await metrics();
    expect(sample(text, 'apiserver_storage_objects', { resource: 'configmaps' })).toBe(3);
    expect(sample(text, 'apiserver_storage_objects', { resource: 'namespaces' })).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'apiserver_storage_objects', { resource: 'bindings' })).toBeUndefined(); // never stored
    expect(sample(text, 'etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' })).toBe(3);
    expect(sample(text, 'etcd_requests_total', { operation: 'create', type: 'configmaps' })).toBe(3);
    expect(sample(text, 'apiserver_storage_size_bytes', { storage_cluster_id: 'memory' })).toBeGreaterThan(0);
    expect(text).toMatch(
      /# HELP etcd_request_duration_seconds Etcd request latency in seconds for each operation and object type\./,
    );
  });

  it('raises apiserver_longrunning_requests while a watch is open, and records sizes and SLI latency of other requests', async () => {
    const labels = { verb: 'WATCH', resource: 'configmaps', scope: 'namespace' };
    const watch = await request(`${srv.url}/api/v1/namespaces/default/configmaps?watch=1`, {
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(sample(await metrics(), 'apiserver_longrunning_requests', labels)).toBe(1);
    watch.body.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const text = await metrics();
    expect(sample(text, 'apiserver_longrunning_requests', labels)).toBe(0);
    expect(sample(text, 'apiserver_response_sizes_count', { verb: 'POST', resource: 'configmaps' })).toBe(3);
    expect(sample(text, 'apiserver_response_sizes_sum', { verb: 'POST', resource: 'configmaps' })).toBeGreaterThan(
      3 * 100,
    );
    expect(sample(text, 'apiserver_request_sli_duration_seconds_count', { verb: 'POST', resource: 'configmaps' })).toBe(
      3,
    );
    expect(sample(text, 'apiserver_request_sli_duration_seconds_count', { verb: 'WATCH' })).toBeUndefined();
  });

  it('counts requests refused by the in-flight limit as terminations', async () => {
    // The limit is 1 read at a time: a list waiting for a future resourceVersion (up to 3 s)
    // holds it, so the next read is refused with 429.
    const held = srv.api('GET', '/api/v1/namespaces/default/configmaps?resourceVersion=999999999');
    await new Promise((r) => setTimeout(r, 200));
    expect((await srv.api('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(429);
    expect((await srv.api('GET', '/api/v1/namespaces/default/configmaps/a')).status).toBe(429);
    expect((await held).status).toBe(504);
    const text = await metrics();
    expect(
      sample(text, 'apiserver_request_terminations_total', { verb: 'LIST', resource: 'configmaps', code: '429' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_terminations_total', { verb: 'GET', resource: 'configmaps', code: '429' }),
    ).toBe(1);
  });

  it('counts the events written to watchers and their sizes, per group, version and kind', async () => {
    const labels = { group: '', version: 'v1', kind: 'ConfigMap' };
    const before = sample(await metrics(), 'apiserver_watch_events_total', labels) ?? 0;
    const open = () =>
      request(`${srv.url}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0`, {
        dispatcher: srv.agent,
        headers: { authorization: `Bearer ${TEST_TOKEN}` },
      });
    const watches = await Promise.all([open(), open()]);
    await new Promise((r) => setTimeout(r, 100));
    expect(
      (
        await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
          metadata: { name: 'watched' },
          data: { k: 'v'.repeat(1500) },
        })
      ).status,
    ).toBe(201);
    await new Promise((r) => setTimeout(r, 200));
    for (const w of watches) w.body.destroy();
    const text = await metrics();
    // From resourceVersion=0 each watch gets a, b and c as ADDED, then the new object once.
    const sent = (sample(text, 'apiserver_watch_events_total', labels) ?? 0) - before;
    expect(sent).toBe(2 * 4);
    expect(sample(text, 'apiserver_watch_events_sizes_count', labels)).toBe(
      sample(text, 'apiserver_watch_events_total', labels),
    );
    // Only `watched` (about 1.6 KB per event) is over 1024 bytes: 2 of its events, one per watch.
    const small = sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '1024' })!;
    expect(sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '2048' })! - small).toBe(2);
    expect(sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '+Inf' })).toBe(
      sample(text, 'apiserver_watch_events_total', labels),
    );
    expect(sample(text, 'apiserver_watch_events_sizes_sum', labels)).toBeGreaterThan(2 * 1500);
    expect(text).toMatch(/# TYPE apiserver_watch_events_sizes histogram/);
    expect(text).toMatch(/# TYPE apiserver_watch_events_total counter/);
  });

  it('reports each watch cache: events received and dispatched, its resourceVersion, capacity and initializations', async () => {
    const labels = { resource: 'configmaps' };
    const counts = async () => {
      const text = await metrics();
      return {
        received: sample(text, 'apiserver_watch_cache_events_received_total', labels) ?? 0,
        dispatched: sample(text, 'apiserver_watch_cache_events_dispatched_total', labels) ?? 0,
      };
    };
    const create = async (name: string) => {
      const res = await srv.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } });
      expect(res.status).toBe(201);
      await new Promise((r) => setTimeout(r, 100));
      return Number(res.body.metadata.resourceVersion);
    };
    // The server's own controllers watch ConfigMaps too: count what one change reaches without
    // a client's watch, then with one open in its namespace.
    const start = await counts();
    await create('cache-1');
    const alone = await counts();
    const watch = await request(`${srv.url}/api/v1/namespaces/default/configmaps?watch=1`, {
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    await new Promise((r) => setTimeout(r, 100));
    const revision = await create('cache-2');
    const watched = await counts();
    watch.body.destroy();
    expect(alone.received - start.received).toBe(1);
    expect(watched.received - alone.received).toBe(1);
    expect(watched.dispatched - alone.dispatched - (alone.dispatched - start.dispatched)).toBe(1);
    const text = await metrics();
    expect(sample(text, 'apiserver_watch_cache_resource_version', labels)).toBeGreaterThanOrEqual(revision);
    expect(sample(text, 'apiserver_watch_cache_capacity', labels)).toBeGreaterThanOrEqual(100);
    expect(sample(text, 'apiserver_watch_cache_initializations_total', labels)).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/# TYPE apiserver_watch_cache_events_received_total counter/);
  });
});

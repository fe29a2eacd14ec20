/** Vitest hooks that run etcd (testcontainers) and server processes for one test file. */
import { afterAll, beforeAll } from 'vitest';
import { startEtcd } from './etcd.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/**
 * Register beforeAll/afterAll hooks that start etcd (testcontainers) and `count` server
 * processes on it, and stop them afterwards. Returns a live view of the started servers.
 */
export function serversOnEtcd(
  count = 1,
  extraArgs: string[] = [],
): { readonly servers: ServerProcess[]; etcdEndpoint: string } {
  const state = { servers: [] as ServerProcess[], etcdEndpoint: '' };
  let etcd: Awaited<ReturnType<typeof startEtcd>> | undefined;
  beforeAll(async () => {
    etcd = await startEtcd();
    state.etcdEndpoint = etcd.endpoint;
    state.servers.push(
      ...(await Promise.all(Array.from({ length: count }, () => startServerProcess([etcd!.endpoint], extraArgs)))),
    );
  });
  afterAll(async () => {
    await Promise.all(state.servers.map((s) => s.stop()));
    await etcd?.stop();
  });
  return state;
}

/**
 * A throw-away three-member etcd cluster for fault-injection tests: members `etcd-0..2` on a
 * user-defined docker network (peers address each other by name), each client port published
 * on a fixed free 127.0.0.1 port so that a member stopped and started again comes back at the
 * same endpoint. Data lives in the container's own file system (no tmpfs), so a restarted
 * member keeps its data and rejoins as itself. Same image rules as ./etcd.ts.
 */
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';

import { createServer } from 'node:net';
import { GenericContainer, Network, Wait, type StartedNetwork, type StartedTestContainer } from 'testcontainers';
import { ETCD_IMAGE } from './etcd.js';
import { run } from './run.js';

export interface EtcdMember {
  /** Name on the docker network, also the etcd member name: `etcd-0`. */
  readonly name: string;
  /** `http://127.0.0.1:<port>`; the same after a restart. */
  readonly endpoint: string;
  readonly container: StartedTestContainer;
}

export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Every member's endpoint, for `--etcd-servers`. */
  readonly endpoints: readonly string[];
  /** The member that leads now, asked of the members that answer (throws if none knows). */
  leader(): Promise<EtcdMember>;
  /** How many watchers a member serves now (its `etcd_debugging_mvcc_watcher_total` gauge). */
  watchers(member: EtcdMember): Promise<number>;
  /** SIGKILL a member's etcd (the container stops; its data stays). */
  kill(member: EtcdMember): Promise<void>;
  /** Start a killed member again and wait until it reports healthy (throws after 60 s). */
  restart(member: EtcdMember): Promise<void>;
  /** Remove every container and the network. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (free when asked; bound again by docker right after). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** POST a v3 gRPC-gateway call to one member; resolves its JSON, or null if it does not answer in 2 s. */
async function gateway(endpoint: string, path: string): Promise<any> {
  try {
    const res = await fetch(`${endpoint}${path}`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) });
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

async function waitHealthy(endpoint: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(2000) })
      .then(async (r) => r.ok && ((await r.json()) as { health?: string }).health === 'true')
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`etcd at ${endpoint} not healthy after ${timeoutMs} ms`);
}

/** Start three members and wait until the cluster has a leader. Throws when Docker is unavailable. */
export async function startEtcdCluster(): Promise<EtcdCluster> {
  const network: StartedNetwork = await new Network().start();
  const names = ['etcd-0', 'etcd-1', 'etcd-2'];
  const initialCluster = names.map((n) => `${n}=http://${n}:2380`).join(',');
  const publicImage = ETCD_IMAGE.startsWith('quay.io/coreos/etcd');
  const ports = [await freePort(), await freePort(), await freePort()];
  const members = await Promise.all(
    names.map(async (name, i): Promise<EtcdMember> => {
      const container = await new GenericContainer(ETCD_IMAGE)
        .withEntrypoint([publicImage ? '/usr/local/bin/etcd' : '/usr/bin/etcd'])
        .withCommand([
          `--name=${name}`,
          '--data-dir=/tmp/etcd-data',
          '--listen-client-urls=http://0.0.0.0:2379',
          `--advertise-client-urls=http://${name}:2379`,
          '--listen-peer-urls=http://0.0.0.0:2380',
          `--initial-advertise-peer-urls=http://${name}:2380`,
          `--initial-cluster=${initialCluster}`,
          '--initial-cluster-state=new',
          '--initial-cluster-token=ck-test',
          '--unsafe-no-fsync',
        ])
        .withNetwork(network)
        .withNetworkAliases(name)
        .withExposedPorts({ container: 2379, host: ports[i]! })
        .withWaitStrategy(Wait.forHttp('/health', 2379).forStatusCode(200).withStartupTimeout(60_000))
        .start();
      return { name, endpoint: `http://127.0.0.1:${ports[i]}`, container };
    }),
  );
  return {
    members,
    endpoints: members.map((m) => m.endpoint),
    async leader() {
      for (const m of members) {
        const status = await gateway(m.endpoint, '/v3/maintenance/status');
        if (!status?.leader || status.leader === '0') continue;
        for (const candidate of members) {
          const s = await gateway(candidate.endpoint, '/v3/maintenance/status');
          if (s?.header?.member_id === status.leader) return candidate;
        }
      }
      throw new Error('no member reports a leader');
    },
    async watchers(member) {
      const text = await fetch(`${member.endpoint}/metrics`, { signal: AbortSignal.timeout(2000) }).then((r) =>
        r.text(),
      );
      const line = text.split('\n').find((l) => l.startsWith('etcd_debugging_mvcc_watcher_total '));
      return Number(line?.split(' ')[1] ?? NaN);
    },
    async kill(member) {
      const res = await run('docker', ['kill', member.container.getId()]);
      if (res.code !== 0) throw new Error(`docker kill ${member.name}: ${res.stderr}`);
    },
    async restart(member) {
      const res = await run('docker', ['start', member.container.getId()]);
      if (res.code !== 0) throw new Error(`docker start ${member.name}: ${res.stderr}`);
      await waitHealthy(member.endpoint);
    },
    async stop() {
      await Promise.all(members.map((m) => m.container.stop({ remove: true, timeout: 2_000 }).catch(() => undefined)));
      await network.stop().catch(() => undefined);
    },
  };
}

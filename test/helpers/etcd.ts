/**
 * A throw-away etcd for tests, started with testcontainers. The image comes from ETCD_IMAGE
 * (default `local/etcd:3.4`, which the README's setup command builds from Debian's etcd-server
 * with no registry; `quay.io/coreos/etcd:v3.4.34` works where a registry is reachable). The
 * image has no shell, so the command is the etcd binary itself and readiness is its /health.
 */
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';

import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

export interface StartedEtcd {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly container: StartedTestContainer;
  stop(): Promise<void>;
}

export const ETCD_IMAGE = process.env.ETCD_IMAGE ?? 'local/etcd:3.4';

/** Start one etcd member. Throws when Docker is unavailable or etcd does not become healthy in 60s. */
export async function startEtcd(): Promise<StartedEtcd> {
  const publicImage = ETCD_IMAGE.startsWith('quay.io/coreos/etcd');
  const container = await new GenericContainer(ETCD_IMAGE)
    .withEntrypoint([publicImage ? '/usr/local/bin/etcd' : '/usr/bin/etcd'])
    .withCommand([
      '--name=test',
      '--data-dir=/tmp/etcd-data',
      '--listen-client-urls=http://0.0.0.0:2379',
      '--advertise-client-urls=http://127.0.0.1:2379',
      '--listen-peer-urls=http://127.0.0.1:2380',
      '--initial-advertise-peer-urls=http://127.0.0.1:2380',
      '--initial-cluster=test=http://127.0.0.1:2380',
      '--unsafe-no-fsync',
    ])
    .withTmpFs({ '/tmp/etcd-data': 'rw' })
    // dockerd here publishes on 127.0.0.1 only (setup-docker.sh starts it with --ip=127.0.0.1).
    .withExposedPorts(2379)
    .withWaitStrategy(Wait.forHttp('/health', 2379).forStatusCode(200).withStartupTimeout(60_000))
    .start();
  const endpoint = `http://127.0.0.1:${container.getMappedPort(2379)}`;
  return {
    endpoint,
    container,
    async stop() {
      await container.stop({ remove: true, timeout: 2_000 });
    },
  };
}

// The chart's pods as the chart renders them, run as containers of the project's image: two
// replicas with exactly the rendered arguments, Secret files at the rendered mount paths, the
// rendered user, read-only root file system, dropped capabilities and emptyDirs (as tmpfs), on
// one etcd. One token and one CA, generated once by the chart, work on both replicas; so does a
// service account token issued by one replica (one signing key).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GenericContainer, Network, Wait, type StartedNetwork, type StartedTestContainer } from 'testcontainers';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ETCD_IMAGE } from '../helpers/etcd.js';
import { buildProjectImage } from '../helpers/image.js';
import { containerOfPod } from '../helpers/chart-pods.js';
import { find, render, type Rendered } from '../chart/render.js';

const files = mkdtempSync(join(tmpdir(), 'ck-chart-pod-'));
let network: StartedNetwork;
const containers: StartedTestContainer[] = [];
let objects: Rendered[];

beforeAll(async () => {
  const image = await buildProjectImage();
  objects = await render({
    replicaCount: 2,
    'etcd.bundled': false,
    'etcd.servers': 'http://etcd:2379',
    'image.repository': image.split(':')[0],
    'image.tag': image.split(':')[1],
  });
  network = await new Network().start();
  const publicImage = ETCD_IMAGE.startsWith('quay.io/coreos/etcd');
  containers.push(
    await new GenericContainer(ETCD_IMAGE)
      .withEntrypoint([publicImage ? '/usr/local/bin/etcd' : '/usr/bin/etcd'])
      .withCommand([
        '--name=etcd',
        '--data-dir=/tmp/etcd',
        '--listen-client-urls=http://0.0.0.0:2379',
        '--advertise-client-urls=http://etcd:2379',
        '--unsafe-no-fsync',
      ])
      .withTmpFs({ '/tmp/etcd': 'rw' })
      .withNetwork(network)
      .withNetworkAliases('etcd')
      .start(),
  );
  const deployment = find(objects, 'Deployment');
  const pod = deployment.spec.template.spec;
  expect(pod.containers[0].securityContext).toMatchObject({
    readOnlyRootFilesystem: true,
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
  });
  for (let i = 0; i < deployment.spec.replicas; i++) {
    containers.push(
      await containerOfPod(objects, pod, files, `apiserver-${i}`)
        .withNetwork(network)
        .withExposedPorts(6443)
        .withWaitStrategy(Wait.forHttp('/readyz', 6443).usingTls().allowInsecure().forStatusCode(200))
        .withStartupTimeout(60_000)
        .start(),
    );
  }
}, 600_000);

afterAll(async () => {
  for (const c of containers.reverse()) await c.stop().catch(() => undefined);
  await network?.stop().catch(() => undefined);
  rmSync(files, { recursive: true, force: true });
});

it("accepts the chart's one token and verifies with the chart's one CA on both replicas", async () => {
  const auth = find(objects, 'Secret', '-auth');
  const token = Buffer.from(auth.data.token, 'base64').toString();
  const ca = Buffer.from(find(objects, 'Secret', '-tls').data['ca.crt'], 'base64').toString();
  const agent = new Agent({ connect: { ca, rejectUnauthorized: true } });
  const replicas = containers.slice(1).map((c) => `https://127.0.0.1:${c.getMappedPort(6443)}`);
  const call = async (url: string, method: string, path: string, body?: unknown) => {
    const res = await request(url + path, {
      method: method as never,
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as any };
  };
  try {
    for (const url of replicas) expect((await call(url, 'GET', '/api/v1/namespaces')).status).toBe(200);
    expect(
      (await call(replicas[0], 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'from-first' } }))
        .status,
    ).toBe(201);
    const read = await call(replicas[1], 'GET', '/api/v1/namespaces/default/configmaps/from-first');
    expect([read.status, read.body.metadata.name]).toEqual([200, 'from-first']);
    // The metrics token in the same file also authenticates (it is what Prometheus scrapes with).
    const metrics = await request(`${replicas[1]}/metrics`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${Buffer.from(auth.data['metrics-token'], 'base64')}` },
    });
    expect(metrics.statusCode).toBe(200);
    await metrics.body.dump();
    // A service account token from the first replica authenticates on the second (one signing key).
    expect(
      (await call(replicas[0], 'POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'shared' } }))
        .status,
    ).toBe(201);
    const issued = await call(replicas[0], 'POST', '/api/v1/namespaces/default/serviceaccounts/shared/token', {
      spec: {},
    });
    expect(issued.status).toBe(201);
    const whoami = await request(`${replicas[1]}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${issued.body.status.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(whoami.statusCode).toBe(201);
    expect(((await whoami.body.json()) as any).status.userInfo.username).toBe('system:serviceaccount:default:shared');
  } finally {
    await agent.close();
  }
});

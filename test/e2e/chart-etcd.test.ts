// The chart's bundled etcd as rendered: three members started from the StatefulSet's pod
// template (command, user, read-only root, the names the peer Service gives them) form one
// cluster; an apiserver pod as rendered serves on it through the rendered --etcd-servers list,
// and keeps serving with one member down (the quorum the etcd PodDisruptionBudget keeps).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Network, Wait, type StartedNetwork, type StartedTestContainer } from 'testcontainers';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { find, render, type Rendered } from '../chart/render.js';
import { containerOfPod } from '../helpers/chart-pods.js';
import { ETCD_IMAGE } from '../helpers/etcd.js';
import { buildProjectImage } from '../helpers/image.js';

const files = mkdtempSync(join(tmpdir(), 'ck-chart-etcd-'));
let network: StartedNetwork;
const members: StartedTestContainer[] = [];
let apiserver: StartedTestContainer;
let objects: Rendered[];

beforeAll(async () => {
  const image = await buildProjectImage();
  const [etcdRepo, etcdTag] = ETCD_IMAGE.split(':');
  objects = await render(
    {
      replicaCount: 1,
      'image.repository': image.split(':')[0],
      'image.tag': image.split(':')[1],
      'etcd.image.repository': etcdRepo,
      'etcd.image.tag': etcdTag,
    },
    'rel',
    'ns',
  );
  network = await new Network().start();
  const sts = find(objects, 'StatefulSet');
  const peer = sts.spec.serviceName;
  const started = Array.from({ length: sts.spec.replicas }, (_, i) => {
    const pod = `${sts.metadata.name}-${i}`;
    const container = containerOfPod(objects, sts.spec.template.spec, files, pod)
      .withNetwork(network)
      .withNetworkAliases(`${pod}.${peer}.ns.svc`)
      .withWaitStrategy(Wait.forLogMessage(/ready to serve client requests/))
      .withStartupTimeout(60_000);
    // The local etcd image keeps its binary in /usr/bin; the public one in /usr/local/bin as rendered.
    if (!ETCD_IMAGE.startsWith('quay.io/coreos/etcd')) container.withEntrypoint(['/usr/bin/etcd']);
    return container.start();
  });
  members.push(...(await Promise.all(started)));
  apiserver = await containerOfPod(objects, find(objects, 'Deployment').spec.template.spec, files, 'apiserver-0')
    .withNetwork(network)
    .withExposedPorts(6443)
    .withWaitStrategy(Wait.forHttp('/readyz', 6443).usingTls().allowInsecure().forStatusCode(200))
    .withStartupTimeout(60_000)
    .start();
}, 600_000);

afterAll(async () => {
  await apiserver?.stop().catch(() => undefined);
  for (const m of members) await m.stop().catch(() => undefined);
  await network?.stop().catch(() => undefined);
  rmSync(files, { recursive: true, force: true });
});

it('forms a 3-member cluster the apiserver serves on, and keeps serving with one member down', async () => {
  const token = Buffer.from(find(objects, 'Secret', '-auth').data.token, 'base64').toString();
  const ca = Buffer.from(find(objects, 'Secret', '-tls').data['ca.crt'], 'base64').toString();
  const agent = new Agent({ connect: { ca } });
  const url = `https://127.0.0.1:${apiserver.getMappedPort(6443)}`;
  const create = async (name: string) => {
    const res = await request(`${url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { name } }),
    });
    await res.body.dump();
    return res.statusCode;
  };
  try {
    const list = await members[0].exec([
      ETCD_IMAGE.startsWith('quay.io/coreos/etcd') ? '/usr/local/bin/etcdctl' : '/usr/bin/etcdctl',
      '--endpoints=http://127.0.0.1:2379',
      'member',
      'list',
    ]);
    expect(list.output.trim().split('\n')).toHaveLength(3);
    expect(await create('with-three')).toBe(201);
    await members[2].stop();
    expect(await create('with-two')).toBe(201);
  } finally {
    await agent.close();
  }
});

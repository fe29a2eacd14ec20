/**
 * Strategic merge patch with real clients on etcd: kubectl apply of a ReplicationController
 * (create, configure with a removed env var in its pod template, unchanged), default
 * `kubectl patch`, `set image`, `label` on a pod (and the server's refusal of a pod spec change
 * outside images, as upstream), `cordon`, `taint`, with kubectl 1.32 (dispatcher) and 1.27 with
 * default flags (1.32 validates through OpenAPI v3, 1.27 through OpenAPI v2 in protobuf); and
 * the Python client's dict patch.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { E2E_TOKEN } from '../helpers/server-process.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const KUBECTLS = [
  ['dispatcher', '/usr/bin/kubectl'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;

const podYaml = (name: string, labels: string, image: string, env: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  containers:\n  - name: nginx\n    image: ${image}\n    env: [${env}]\n`;

const rcYaml = (name: string, labels: string, image: string, env: string) =>
  `apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  replicas: 1\n  selector: {rc: ${name}}\n  template:\n    metadata:\n      labels: {rc: ${name}}\n    spec:\n      containers:\n      - name: nginx\n        image: ${image}\n        env: [${env}]\n`;

describe.each(KUBECTLS)('kubectl (%s)', (label, kubectl) => {
  const k = (...args: string[]) => run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args]);

  it('apply creates, configures (label added, image changed, env var removed in an RC template), then reports unchanged', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apply-'));
    const name = `applied-${label.replace('.', '')}`;
    const v1 = join(dir, 'v1.yaml');
    const v2 = join(dir, 'v2.yaml');
    await writeFile(v1, rcYaml(name, 'app: a', 'nginx:1.25', '{name: A, value: "1"}, {name: B, value: "2"}'));
    await writeFile(v2, rcYaml(name, 'app: a, tier: frontend', 'nginx:1.27', '{name: A, value: "1"}'));
    const outputs = [];
    for (const f of [v1, v2, v2]) {
      const res = await k('apply', '-f', f);
      expect(res.code, res.stderr).toBe(0);
      outputs.push(res.stdout.trim());
    }
    expect(outputs).toEqual([
      `replicationcontroller/${name} created`,
      `replicationcontroller/${name} configured`,
      `replicationcontroller/${name} unchanged`,
    ]);
    const live = JSON.parse((await k('get', 'rc', name, '-o', 'json')).stdout);
    expect(live.metadata.labels).toEqual({ app: 'a', tier: 'frontend' });
    expect(live.spec.template.spec.containers.map((c: any) => [c.name, c.image, c.env])).toEqual([
      ['nginx', 'nginx:1.27', [{ name: 'A', value: '1' }]],
    ]);
  });

  it('apply of a pod may change its image and labels, not its env (upstream ValidatePodUpdate)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apply-pod-'));
    const name = `applied-pod-${label.replace('.', '')}`;
    const files = ['v1', 'v2', 'v3'].map((v) => join(dir, `${v}.yaml`));
    await writeFile(files[0], podYaml(name, 'app: a', 'nginx:1.25', '{name: A, value: "1"}, {name: B, value: "2"}'));
    await writeFile(
      files[1],
      podYaml(name, 'app: a, tier: frontend', 'nginx:1.27', '{name: A, value: "1"}, {name: B, value: "2"}'),
    );
    await writeFile(files[2], podYaml(name, 'app: a, tier: frontend', 'nginx:1.27', '{name: A, value: "1"}'));
    expect((await k('apply', '-f', files[0])).code).toBe(0);
    const configured = await k('apply', '-f', files[1]);
    expect(configured.code, configured.stderr).toBe(0);
    expect(configured.stdout.trim()).toBe(`pod/${name} configured`);
    const refused = await k('apply', '-f', files[2]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `The Pod "${name}" is invalid: spec: Forbidden: pod updates may not change fields other than \`spec.containers[*].image\``,
    );
    const live = JSON.parse((await k('get', 'pod', name, '-o', 'json')).stdout);
    expect(live.metadata.labels).toEqual({ app: 'a', tier: 'frontend' });
    expect(live.spec.containers.map((c: any) => [c.image, c.env.length])).toEqual([['nginx:1.27', 2]]);
  });

  it('patch (strategic by default), set image and label on a pod and an RC, cordon and taint', async () => {
    const name = `patched-${label.replace('.', '')}`;
    const dir = await mkdtemp(join(tmpdir(), 'patch-'));
    await writeFile(join(dir, 'p.yaml'), podYaml(name, 'app: p', 'nginx:1.25', '{name: A, value: "1"}'));
    expect((await k('create', '-f', join(dir, 'p.yaml'))).code).toBe(0);
    const envPatch = '{"spec":{"containers":[{"name":"nginx","env":[{"name":"C","value":"3"}]}]}}';
    const refused = await k('patch', 'pod', name, '-p', envPatch);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('spec: Forbidden: pod updates may not change fields other than');
    const patched = await k(
      'patch',
      'pod',
      name,
      '-p',
      '{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}],"activeDeadlineSeconds":600}}',
    );
    expect(patched.code, patched.stderr).toBe(0);
    const setImage = await k('set', 'image', `pod/${name}`, 'nginx=nginx:1.28');
    expect(setImage.code, setImage.stderr).toBe(0);
    expect((await k('label', 'pod', name, 'tier=web')).code).toBe(0);
    const pod = JSON.parse((await k('get', 'pod', name, '-o', 'json')).stdout);
    expect(pod.spec.containers[0].image).toBe('nginx:1.28');
    expect(pod.spec.activeDeadlineSeconds).toBe(600);
    expect(pod.metadata.labels).toEqual({ app: 'p', tier: 'web' });
    expect(pod.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }]);

    // The env var goes into a ReplicationController's pod template instead.
    const rc = `rc-${name}`;
    await writeFile(join(dir, 'rc.yaml'), rcYaml(rc, 'app: p', 'nginx:1.25', '{name: A, value: "1"}'));
    expect((await k('create', '-f', join(dir, 'rc.yaml'))).code).toBe(0);
    const rcPatched = await k('patch', 'rc', rc, '-p', `{"spec":{"template":${envPatch}}}`);
    expect(rcPatched.code, rcPatched.stderr).toBe(0);
    const rcImage = await k('set', 'image', `rc/${rc}`, 'nginx=nginx:1.28');
    expect(rcImage.code, rcImage.stderr).toBe(0);
    const template = JSON.parse((await k('get', 'rc', rc, '-o', 'json')).stdout).spec.template.spec;
    expect(template.containers[0].image).toBe('nginx:1.28');
    expect(template.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'C', value: '3' },
    ]);

    const node = `node-${label.replace('.', '')}`;
    await writeFile(join(dir, 'n.yaml'), `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${node}\n`);
    expect((await k('create', '-f', join(dir, 'n.yaml'))).code).toBe(0);
    for (const args of [
      ['cordon', node],
      ['taint', 'nodes', node, 'k=v:NoSchedule'],
      ['taint', 'nodes', node, 'k2=v2:NoExecute'],
    ]) {
      const res = await k(...args);
      expect(res.code, res.stderr).toBe(0);
    }
    const spec = JSON.parse((await k('get', 'node', node, '-o', 'json')).stdout).spec;
    expect(spec.unschedulable).toBe(true);
    // kubectl sends the whole list (taints have no merge strategy) in its own order.
    expect(spec.taints.map((t: any) => `${t.key}=${t.value}:${t.effect}`).sort()).toEqual([
      'k2=v2:NoExecute',
      'k=v:NoSchedule',
    ]);
    expect((await k('uncordon', node)).code).toBe(0);
  });
});

it('the Python client patches with a dict (strategic merge patch)', async () => {
  const server = started.servers[0];
  const caFile = join(server.dir, 'py-ca.crt');
  await writeFile(caFile, server.caPem);
  const script = `
import json, sys
from kubernetes import client
conf = client.Configuration(); conf.host = sys.argv[1]; conf.ssl_ca_cert = sys.argv[3]
conf.api_key = {"authorization": "Bearer " + sys.argv[2]}
api = client.CoreV1Api(client.ApiClient(conf))
api.create_namespaced_pod("default", {"metadata": {"name": "py-smp"}, "spec": {"containers": [{"name": "a", "image": "x:1"}, {"name": "b", "image": "y:1"}]}})
out = api.patch_namespaced_pod("py-smp", "default", {"spec": {"containers": [{"name": "b", "image": "y:2"}]}})
print(json.dumps([[c.name, c.image] for c in out.spec.containers]))
`;
  const res = await run('/usr/bin/python3', ['-c', script, server.url, E2E_TOKEN, caFile]);
  expect(res.code, res.stderr).toBe(0);
  expect(JSON.parse(res.stdout.trim())).toEqual([
    ['a', 'x:1'],
    ['b', 'y:2'],
  ]);
});

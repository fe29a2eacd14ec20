/**
 * A server with simulated nodes answers like a whole cluster (issue 33): `helm create` +
 * `helm install --wait` completes, `helm test` runs its test pod to Succeeded, and kubectl's
 * rollout commands (status, set image, undo, scale) behave as on a real cluster, through the
 * Deployment and ReplicaSet controllers, the scheduler and the simulated nodes' agent; a pod
 * no node fits stays Pending with the scheduler's PodScheduled=False condition; `kubectl wait
 * --for=condition=complete` returns for a Job; `kubectl drain` is refused while a
 * PodDisruptionBudget forbids and completes once scaling lets it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';
import { run } from '../helpers/run.js';

const srv = useTestServer({ simulatedNodes: 3 });
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
let helm: string;
let kubeconfig: string;
const k = (...args: string[]) => run(KUBECTL, [`--kubeconfig=${kubeconfig}`, ...args], { timeoutMs: 90_000 });
const h = (...args: string[]) => run(helm, [`--kubeconfig=${kubeconfig}`, ...args], { timeoutMs: 90_000 });

beforeAll(async () => {
  const found = await run('bash', [join(import.meta.dirname, '../../scripts/get-helm.sh')], { timeoutMs: 170_000 });
  expect(found.code, found.stderr).toBe(0);
  helm = found.stdout.trim();
  kubeconfig = await writeKubeconfig(srv, 'workloads');
}, 180_000);

describe('a cluster of simulated nodes', () => {
  it('lists its nodes Ready', async () => {
    const nodes = await k(
      'get',
      'nodes',
      '-o',
      'jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type=="Ready")].status} {end}',
    );
    expect(nodes.stdout.trim().split(' ').sort()).toEqual(['sim-node-0=True', 'sim-node-1=True', 'sim-node-2=True']);
  });

  it('installs the chart helm create makes with --wait, and helm test succeeds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-create-'));
    expect((await run(helm, ['create', join(dir, 'demo')])).code).toBe(0);
    const began = Date.now();
    const install = await h('install', 'demo', join(dir, 'demo'), '--wait', '--timeout', '60s');
    expect(install.code, install.stderr).toBe(0);
    const seconds = (Date.now() - began) / 1000;
    console.log(`helm install --wait of helm create's chart: ${seconds.toFixed(1)} s`);
    const ready = await k('get', 'deployment', 'demo', '-o', 'jsonpath={.status.readyReplicas}/{.status.replicas}');
    expect(ready.stdout).toBe('1/1');
    const test = await h('test', 'demo', '--timeout', '60s');
    expect(test.code, test.stderr).toBe(0);
    expect(test.stdout).toMatch(/Phase:\s+Succeeded/);
  });

  it('rolls out, undoes and scales a Deployment as kubectl expects', async () => {
    expect((await k('create', 'deployment', 'web', '--image=nginx:1.26', '--replicas=3')).code).toBe(0);
    expect((await k('rollout', 'status', 'deploy/web', '--timeout=60s')).stdout).toContain('successfully rolled out');
    expect((await k('set', 'image', 'deploy/web', 'nginx=nginx:1.27')).code).toBe(0);
    expect((await k('rollout', 'status', 'deploy/web', '--timeout=60s')).stdout).toContain('successfully rolled out');
    const undo = await k('rollout', 'undo', 'deploy/web');
    expect(undo.stdout).toContain('rolled back');
    expect((await k('rollout', 'status', 'deploy/web', '--timeout=60s')).stdout).toContain('successfully rolled out');
    // The first ReplicaSet is reused as revision 3; the second is scaled to 0.
    const rs = await k(
      'get',
      'rs',
      '-l',
      'app=web',
      '-o',
      'jsonpath={range .items[*]}{.spec.template.spec.containers[0].image}:{.spec.replicas}:{.metadata.annotations.deployment\\.kubernetes\\.io/revision} {end}',
    );
    expect(rs.stdout.trim().split(' ').sort()).toEqual(['nginx:1.26:3:3', 'nginx:1.27:0:2']);
    expect((await k('scale', 'deploy/web', '--replicas=5')).code).toBe(0);
    expect((await k('rollout', 'status', 'deploy/web', '--timeout=60s')).stdout).toContain('successfully rolled out');
    // Pods of the old ReplicaSets may still be Terminating (their containers stop a second in).
    const pods = await k(
      'get',
      'pods',
      '-l',
      'app=web',
      '-o',
      'jsonpath={range .items[*]}{.status.phase}:{.spec.nodeName}:{.status.podIP}:{.metadata.deletionTimestamp} {end}',
    );
    const live = pods.stdout
      .trim()
      .split(' ')
      .filter((row) => row.endsWith(':'));
    expect(live).toHaveLength(5);
    for (const row of live) expect(row).toMatch(/^Running:sim-node-\d:10\.64\.\d+\.\d+:$/);
  });

  it('completes a Job, as kubectl wait --for=condition=complete sees', async () => {
    expect((await k('create', 'job', 'once', '--image=busybox', '--', 'echo', 'hi')).code).toBe(0);
    const wait = await k('wait', '--for=condition=complete', 'job/once', '--timeout=60s');
    expect(wait.code, wait.stderr).toBe(0);
    expect(wait.stdout).toContain('job.batch/once condition met');
    const job = await k('get', 'job', 'once', '-o', 'jsonpath={.status.succeeded}/{.spec.completions}');
    expect(job.stdout).toBe('1/1');
  });

  it('drains a node only as far as a PodDisruptionBudget allows', async () => {
    expect((await k('create', 'deployment', 'guarded', '--image=nginx', '--replicas=2')).code).toBe(0);
    expect((await k('create', 'pdb', 'guarded', '--selector=app=guarded', '--min-available=2')).code).toBe(0);
    expect((await k('rollout', 'status', 'deploy/guarded', '--timeout=60s')).code).toBe(0);
    const node = (await k('get', 'pods', '-l', 'app=guarded', '-o', 'jsonpath={.items[0].spec.nodeName}')).stdout;
    const refused = await k('drain', node, '--ignore-daemonsets', '--timeout=6s');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect((await k('scale', 'deploy/guarded', '--replicas=4')).code).toBe(0);
    expect((await k('rollout', 'status', 'deploy/guarded', '--timeout=60s')).code).toBe(0);
    const drained = await k('drain', node, '--ignore-daemonsets', '--timeout=60s');
    expect(drained.code, drained.stderr).toBe(0);
    expect(drained.stdout).toContain(`node/${node} drained`);
    expect((await k('uncordon', node)).code).toBe(0);
  });

  it('leaves a pod no node fits Pending with the scheduler’s condition', async () => {
    const overrides = JSON.stringify({ spec: { nodeSelector: { disk: 'ssd' } } });
    expect((await k('run', 'lonely', '--image=busybox', '--restart=Never', `--overrides=${overrides}`)).code).toBe(0);
    let condition = '';
    for (let i = 0; i < 100 && !condition; i++) {
      condition = (
        await k('get', 'pod', 'lonely', '-o', 'jsonpath={.status.conditions[?(@.type=="PodScheduled")].message}')
      ).stdout;
      if (!condition) await new Promise((r) => setTimeout(r, 50));
    }
    expect(condition).toBe(
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });
});

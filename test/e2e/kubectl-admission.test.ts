/**
 * Quota, limit ranges and service accounts as a kubectl 1.33 user meets them on a server on
 * etcd: a quota of `pods: 2` admits two pods and refuses the third with upstream's message,
 * `kubectl describe quota` shows the used counts; a LimitRange's defaults appear on a pod
 * created without resources and a pod over its max is refused; a new namespace has its
 * `default` ServiceAccount at once and pods run as it.
 */
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const k = (...args: string[]) =>
  run(KUBECTL, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { timeoutMs: 60_000 });
const kInput = (input: string, ...args: string[]) =>
  run(KUBECTL, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { input });

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check()) && Date.now() - start < ms) await new Promise((r) => setTimeout(r, 200));
}

describe('kubectl against admission', () => {
  it('enforces a pod quota and describes its usage', async () => {
    expect((await k('create', 'namespace', 'quota-e2e')).code).toBe(0);
    expect((await k('-n', 'quota-e2e', 'create', 'quota', 'q', '--hard=pods=2')).code).toBe(0);
    await until(
      async () =>
        (await k('-n', 'quota-e2e', 'get', 'quota', 'q', '-o', 'jsonpath={.status.used.pods}')).stdout === '0',
    );
    for (const name of ['p1', 'p2']) {
      const res = await k('-n', 'quota-e2e', 'run', name, '--image=nginx', '--restart=Never');
      expect(res.code, res.stderr).toBe(0);
    }
    const third = await k('-n', 'quota-e2e', 'run', 'p3', '--image=nginx', '--restart=Never');
    expect(third.code).not.toBe(0);
    expect(third.stderr.trim()).toBe(
      'Error from server (Forbidden): pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
    );
    const described = await k('-n', 'quota-e2e', 'describe', 'quota', 'q');
    expect(described.stdout).toMatch(/Resource\s+Used\s+Hard/);
    expect(described.stdout).toMatch(/pods\s+2\s+2/);
  });

  it('applies LimitRange defaults and refuses a pod over its max', async () => {
    expect((await k('create', 'namespace', 'limits-e2e')).code).toBe(0);
    const lr = [
      'apiVersion: v1',
      'kind: LimitRange',
      'metadata: {name: lr}',
      'spec:',
      '  limits:',
      '  - type: Container',
      '    default: {cpu: 500m, memory: 256Mi}',
      '    defaultRequest: {cpu: 250m, memory: 128Mi}',
      '    max: {cpu: "1"}',
    ].join('\n');
    expect((await kInput(lr, '-n', 'limits-e2e', 'apply', '-f', '-')).code).toBe(0);
    expect((await k('-n', 'limits-e2e', 'run', 'plain', '--image=nginx', '--restart=Never')).code).toBe(0);
    const resources = await k(
      '-n',
      'limits-e2e',
      'get',
      'pod',
      'plain',
      '-o',
      'jsonpath={.spec.containers[0].resources}',
    );
    expect(JSON.parse(resources.stdout)).toEqual({
      limits: { cpu: '500m', memory: '256Mi' },
      requests: { cpu: '250m', memory: '128Mi' },
    });
    const overrides = JSON.stringify({
      spec: { containers: [{ name: 'big', image: 'nginx', resources: { limits: { cpu: '2' } } }] },
    });
    const big = await k(
      '-n',
      'limits-e2e',
      'run',
      'big',
      '--image=nginx',
      '--restart=Never',
      `--overrides=${overrides}`,
    );
    expect(big.stderr.trim()).toBe(
      'Error from server (Forbidden): pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2.',
    );
  });

  it('gives a new namespace its default ServiceAccount and pods run as it', async () => {
    expect((await k('create', 'namespace', 'sa-e2e')).code).toBe(0);
    const start = Date.now();
    await until(async () => (await k('-n', 'sa-e2e', 'get', 'serviceaccount', 'default')).code === 0, 5000);
    expect(Date.now() - start).toBeLessThan(2000); // one kubectl round trip on top of the second
    expect((await k('-n', 'sa-e2e', 'run', 'p', '--image=nginx', '--restart=Never')).code).toBe(0);
    expect((await k('-n', 'sa-e2e', 'get', 'pod', 'p', '-o', 'jsonpath={.spec.serviceAccountName}')).stdout).toBe(
      'default',
    );
  });
});

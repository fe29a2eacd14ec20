/**
 * A chart shaped like the popular ones (test/fixtures/charts/workloads: a web server
 * Deployment with a PodDisruptionBudget, NetworkPolicy and Ingress, a database StatefulSet, a
 * node exporter DaemonSet, an IngressClass, RBAC, Services with appProtocol, a CronJob and a
 * pre-install/pre-upgrade hook Job) installs, upgrades and uninstalls with Helm 4's defaults.
 * Helm waits for its hook Job to complete; with no job controller here, the test marks each
 * Job complete through `jobs/status` as a cluster's job controller would (1.33's status rules:
 * SuccessCriteriaMet, then Complete with startTime and completionTime).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const CHART = join(import.meta.dirname, '../fixtures/charts/workloads');
const JOBS = '/apis/batch/v1/namespaces/default/jobs';
let helm: string;
let kubeconfig: string;
let completed = 0;
const stop = new AbortController();

/** Stand-in for the job controller: completes every Job it finds, as a successful run would. */
async function completeJobs(): Promise<void> {
  while (!stop.signal.aborted) {
    const list = await srv.api('GET', JOBS);
    for (const job of (list.body.items ?? []) as any[]) {
      if ((job.status?.conditions ?? []).some((c: any) => c.type === 'Complete')) continue;
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const status = {
        startTime: now,
        completionTime: now,
        succeeded: 1,
        conditions: [
          {
            type: 'SuccessCriteriaMet',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
            lastProbeTime: now,
            lastTransitionTime: now,
          },
          {
            type: 'Complete',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
            lastProbeTime: now,
            lastTransitionTime: now,
          },
        ],
      };
      const res = await srv.api('PUT', `${JOBS}/${job.metadata.name}/status`, { ...job, status });
      if (res.status === 200) completed++;
      else if (res.status !== 409 && res.status !== 404) throw new Error(`jobs/status: ${res.status} ${res.text}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

let controller: Promise<void>;
beforeAll(async () => {
  const found = await run('bash', [join(import.meta.dirname, '../../scripts/get-helm.sh')], { timeoutMs: 170_000 });
  expect(found.code, found.stderr).toBe(0);
  helm = found.stdout.trim();
  kubeconfig = await writeKubeconfig(srv, 'workloads');
  controller = completeJobs();
}, 200_000);
afterAll(async () => {
  stop.abort();
  await controller;
});

const h = async (...args: string[]) => {
  const res = await run(helm, [`--kubeconfig=${kubeconfig}`, ...args], { timeoutMs: 120_000 });
  expect(res.code, `helm ${args.join(' ')}: ${res.stderr}`).toBe(0);
  return res.stdout;
};

it('installs, upgrades and uninstalls with Helm 4 defaults, waiting for its hook Job', async () => {
  expect(await h('install', 'pop', CHART, '--timeout', '90s')).toMatch(/STATUS: deployed/);
  expect(completed).toBeGreaterThanOrEqual(1);
  // The hook Job was deleted once it succeeded (hook-delete-policy hook-succeeded).
  expect((await srv.api('GET', `${JOBS}/pop-migrate`)).status).toBe(404);
  for (const path of [
    '/apis/apps/v1/namespaces/default/deployments/pop-web',
    '/apis/apps/v1/namespaces/default/statefulsets/pop-db',
    '/apis/apps/v1/namespaces/default/daemonsets/pop-exporter',
    '/apis/policy/v1/namespaces/default/poddisruptionbudgets/pop-web',
    '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies/pop-web',
    '/apis/networking.k8s.io/v1/namespaces/default/ingresses/pop-web',
    '/apis/networking.k8s.io/v1/ingressclasses/pop-nginx',
    '/apis/batch/v1/namespaces/default/cronjobs/pop-backup',
  ])
    expect((await srv.api('GET', path)).status, path).toBe(200);
  const svc = (await srv.api('GET', '/api/v1/namespaces/default/services/pop-web')).body;
  expect(svc.spec).toMatchObject({
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    internalTrafficPolicy: 'Cluster',
  });
  expect(svc.spec.ports[0].appProtocol).toBe('http');

  const before = completed;
  await h('upgrade', 'pop', CHART, '--set', 'replicas=3', '--timeout', '90s');
  expect(completed).toBeGreaterThan(before);
  expect((await srv.api('GET', '/apis/apps/v1/namespaces/default/deployments/pop-web')).body.spec.replicas).toBe(3);

  await h('uninstall', 'pop', '--timeout', '90s');
  const kinds =
    'deployments,statefulsets,daemonsets,pdb,networkpolicies,ingresses,cronjobs,services,configmaps,secrets';
  const left = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
    `--kubeconfig=${kubeconfig}`,
    'get',
    kinds,
    '-o',
    'name',
  ]);
  expect(left.stdout.split('\n').filter((l) => l.includes('/pop-'))).toEqual([]);
});

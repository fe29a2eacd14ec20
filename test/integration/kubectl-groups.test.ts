/**
 * kubectl 1.33 and 1.27 with the groups beyond core, as a user drives them: `create job`,
 * `create cronjob`, `create ingress`, `create pdb`, `create priorityclass`, `autoscale`, and
 * `apply --prune -l` (which resolves its default kinds, apps, batch and networking among them,
 * through discovery and fails when one is missing).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const KUBECTLS = ['1.33', '1.27'].map((v) => [v, `/usr/lib/google-cloud-sdk/bin/kubectl.${v}`] as const);

let config: string;
beforeAll(async () => {
  config = await writeKubeconfig(srv, 'groups');
});

describe.each(KUBECTLS)('kubectl %s', (version, bin) => {
  const kubectl = async (...args: string[]) => {
    const res = await run(bin, [`--kubeconfig=${config}`, ...args]);
    expect(res.code, `kubectl ${args.join(' ')}: ${res.stderr}`).toBe(0);
    return res.stdout;
  };
  const v = version.replace('.', '');
  const get = async (path: string) => (await srv.api('GET', path)).body;

  it('creates a job and a cronjob', async () => {
    expect(await kubectl('create', 'job', `job-${v}`, '--image=busybox', '--', 'date')).toBe(
      `job.batch/job-${v} created\n`,
    );
    const job = await get(`/apis/batch/v1/namespaces/default/jobs/job-${v}`);
    expect(job.spec).toMatchObject({ backoffLimit: 6, completions: 1, parallelism: 1 });
    expect(job.spec.template.spec.containers[0]).toMatchObject({ image: 'busybox', command: ['date'] });
    expect(job.spec.selector.matchLabels['batch.kubernetes.io/controller-uid']).toBe(job.metadata.uid);

    expect(await kubectl('create', 'cronjob', `cron-${v}`, '--image=busybox', '--schedule=*/5 * * * *')).toBe(
      `cronjob.batch/cron-${v} created\n`,
    );
    const cron = await get(`/apis/batch/v1/namespaces/default/cronjobs/cron-${v}`);
    expect(cron.spec).toMatchObject({ schedule: '*/5 * * * *', concurrencyPolicy: 'Allow', suspend: false });
    expect(await kubectl('get', 'cronjob', `cron-${v}`)).toMatch(/^NAME\s+SCHEDULE\s+(TIMEZONE\s+)?SUSPEND\s+ACTIVE/);
  });

  it('creates an ingress, a pdb and a priorityclass', async () => {
    expect(await kubectl('create', 'ingress', `ing-${v}`, '--rule=demo.example.com/=svc:80')).toBe(
      `ingress.networking.k8s.io/ing-${v} created\n`,
    );
    const ing = await get(`/apis/networking.k8s.io/v1/namespaces/default/ingresses/ing-${v}`);
    expect(ing.spec.rules[0]).toEqual({
      host: 'demo.example.com',
      http: {
        paths: [{ path: '/', pathType: 'Exact', backend: { service: { name: 'svc', port: { number: 80 } } } }],
      },
    });
    expect(await kubectl('create', 'pdb', `pdb-${v}`, '--selector=app=web', '--min-available=1')).toBe(
      `poddisruptionbudget.policy/pdb-${v} created\n`,
    );
    expect(await kubectl('get', 'pdb', `pdb-${v}`)).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED/);
    expect(await kubectl('create', 'priorityclass', `high-${v}`, '--value=1000')).toBe(
      `priorityclass.scheduling.k8s.io/high-${v} created\n`,
    );
    expect((await get(`/apis/scheduling.k8s.io/v1/priorityclasses/high-${v}`)).preemptionPolicy).toBe(
      'PreemptLowerPriority',
    );
  });

  it('autoscales a deployment', async () => {
    await kubectl('create', 'deployment', `auto-${v}`, '--image=nginx');
    expect(await kubectl('autoscale', 'deployment', `auto-${v}`, '--min=2', '--max=5', '--cpu-percent=80')).toMatch(
      new RegExp(`^horizontalpodautoscaler.autoscaling/auto-${v} autoscaled\n$`),
    );
    const hpa = await get(`/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/auto-${v}`);
    expect(hpa.spec).toMatchObject({
      minReplicas: 2,
      maxReplicas: 5,
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: `auto-${v}` },
    });
    const v1 = await get(`/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/auto-${v}`);
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(80);
  });

  it('prunes with apply --prune -l', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'prune-'));
    const label = `prune-${v}`;
    const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${v}\n  labels:\n    app: ${label}\ndata:\n  a: "1"\n`;
    const deploy = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: pruned-${v}`,
      `  labels: {app: ${label}}`,
      'spec:',
      `  selector: {matchLabels: {app: ${label}}}`,
      '  template:',
      `    metadata: {labels: {app: ${label}}}`,
      '    spec: {containers: [{name: c, image: nginx}]}',
    ].join('\n');
    await writeFile(join(dir, 'all.yaml'), `${cm}---\n${deploy}\n`);
    await kubectl('apply', '-f', join(dir, 'all.yaml'));
    expect((await srv.api('GET', `/apis/apps/v1/namespaces/default/deployments/pruned-${v}`)).status).toBe(200);
    await writeFile(join(dir, 'all.yaml'), cm);
    const out = await kubectl('apply', '-f', join(dir, 'all.yaml'), '--prune', '-l', `app=${label}`);
    expect(out).toContain(`deployment.apps/pruned-${v} pruned`);
    expect((await srv.api('GET', `/apis/apps/v1/namespaces/default/deployments/pruned-${v}`)).status).toBe(404);
  });
});

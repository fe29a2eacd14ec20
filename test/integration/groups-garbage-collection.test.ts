/**
 * Garbage collection through ownerReferences across groups: a Deployment owning a ReplicaSet
 * owning a Pod (as the deployment and replica set controllers make them) goes as a whole when
 * the Deployment is deleted in the background; a Job deleted in the foreground takes its pods
 * first; deleting through extensions/v1beta1 reaches the same objects (one storage).
 */
import { expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const APPS = '/apis/apps/v1/namespaces/default';
const CORE = '/api/v1/namespaces/default';

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});
const ownerRef = (obj: any) => ({
  apiVersion: obj.apiVersion,
  kind: obj.kind,
  name: obj.metadata.name,
  uid: obj.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

/** A Deployment, a ReplicaSet it owns and a Pod the ReplicaSet owns. */
async function rollout(app: string) {
  const deploy = await srv.api('POST', `${APPS}/deployments`, {
    metadata: { name: app },
    spec: { selector: { matchLabels: { app } }, template: template(app) },
  });
  expect(deploy.status).toBe(201);
  const rs = await srv.api('POST', `${APPS}/replicasets`, {
    metadata: { name: `${app}-1`, ownerReferences: [ownerRef(deploy.body)] },
    spec: { selector: { matchLabels: { app } }, template: template(app) },
  });
  expect(rs.status).toBe(201);
  const pod = await srv.api('POST', `${CORE}/pods`, {
    metadata: { name: `${app}-1-a`, labels: { app }, ownerReferences: [ownerRef(rs.body)] },
    spec: template(app).spec,
  });
  expect(pod.status).toBe(201);
}

const status = async (path: string) => (await srv.api('GET', path)).status;

it('deletes a Deployment with its ReplicaSets and their Pods (Background)', async () => {
  await rollout('gc-web');
  const del = await srv.api('DELETE', `${APPS}/deployments/gc-web`, { propagationPolicy: 'Background' });
  expect(del.status).toBe(200);
  expect(
    await eventually(
      () => status(`${APPS}/replicasets/gc-web-1`),
      (s) => s === 404,
    ),
  ).toBe(404);
  expect(
    await eventually(
      () => status(`${CORE}/pods/gc-web-1-a`),
      (s) => s === 404,
    ),
  ).toBe(404);
});

it('deletes through extensions/v1beta1 what apps/v1 made, with the same collection', async () => {
  await rollout('gc-ext');
  const del = await srv.api('DELETE', '/apis/extensions/v1beta1/namespaces/default/deployments/gc-ext', {
    propagationPolicy: 'Background',
  });
  expect(del.status).toBe(200);
  expect(await status(`${APPS}/deployments/gc-ext`)).toBe(404);
  expect(
    await eventually(
      () => status(`${APPS}/replicasets/gc-ext-1`),
      (s) => s === 404,
    ),
  ).toBe(404);
});

it('deletes a Job after its pods in the foreground', async () => {
  const job = await srv.api('POST', '/apis/batch/v1/namespaces/default/jobs', {
    metadata: { name: 'gc-job' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });
  expect(job.status).toBe(201);
  const pod = await srv.api('POST', `${CORE}/pods`, {
    metadata: { name: 'gc-job-x', ownerReferences: [ownerRef(job.body)] },
    spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
  });
  expect(pod.status).toBe(201);
  const del = await srv.api('DELETE', '/apis/batch/v1/namespaces/default/jobs/gc-job', {
    propagationPolicy: 'Foreground',
  });
  expect(del.status).toBe(200);
  expect(del.body.metadata.finalizers).toContain('foregroundDeletion');
  expect(
    await eventually(
      () => status('/apis/batch/v1/namespaces/default/jobs/gc-job'),
      (s) => s === 404,
    ),
  ).toBe(404);
  expect(await status(`${CORE}/pods/gc-job-x`)).toBe(404);
});

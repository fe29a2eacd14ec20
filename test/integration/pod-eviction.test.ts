/**
 * pods/eviction (resources/evictions, upstream EvictionREST): a pod no budget covers is
 * deleted; a budget allowing no disruption answers 429 with a DisruptionBudget cause; one
 * allowing it is decremented and records the pod; a dry run changes nothing; policy/v1 and
 * policy/v1beta1 Evictions are both accepted; an evicted pod is marked DisruptionTarget=True first.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'evictions';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
const MERGE = { 'content-type': 'application/merge-patch+json' };

/** A running, ready pod labelled app=`app` (not bound, so it is deleted at once). */
async function runningPod(name: string, app: string): Promise<void> {
  await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  const res = await srv.api('POST', PODS, {
    metadata: { name, labels: { app } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  expect(res.status, res.text).toBe(201);
  const status = await srv.api(
    'PATCH',
    `${PODS}/${name}/status`,
    { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
    MERGE,
  );
  expect(status.status, status.text).toBe(200);
}

/** A budget over app=`app` whose status allows `allowed` disruptions (as the disruption controller writes it). */
async function budget(name: string, app: string, allowed: number): Promise<void> {
  const res = await srv.api('POST', PDBS, {
    metadata: { name },
    spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  });
  expect(res.status, res.text).toBe(201);
  const status = await srv.api(
    'PATCH',
    `${PDBS}/${name}/status`,
    {
      status: {
        observedGeneration: 1,
        disruptionsAllowed: allowed,
        currentHealthy: 1 + allowed,
        desiredHealthy: 1,
        expectedPods: 1 + allowed,
      },
    },
    MERGE,
  );
  expect(status.status, status.text).toBe(200);
}

const evict = (name: string, apiVersion = 'policy/v1', deleteOptions?: object, query = '') =>
  srv.api('POST', `${PODS}/${name}/eviction${query}`, {
    apiVersion,
    kind: 'Eviction',
    metadata: { name, namespace: NS },
    ...(deleteOptions ? { deleteOptions } : {}),
  });

const exists = async (name: string) => (await srv.api('GET', `${PODS}/${name}`)).status === 200;

describe('pods/eviction', () => {
  it('deletes a pod no budget covers: 201 Success, and the pod is gone', async () => {
    await runningPod('ev-free', 'ev-free');
    const res = await evict('ev-free');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
    expect(await exists('ev-free')).toBe(false);
  });

  it('refuses with 429 and a DisruptionBudget cause when the budget allows no disruption', async () => {
    await runningPod('ev-blocked', 'ev-blocked');
    await budget('pdb-blocked', 'ev-blocked', 0);
    const res = await evict('ev-blocked');
    expect(res.status, res.text).toBe(429);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'TooManyRequests',
      code: 429,
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: 'The disruption budget pdb-blocked needs 1 healthy pods and has 1 currently',
          },
        ],
      },
    });
    expect(await exists('ev-blocked')).toBe(true);
  });

  it('evicts when the budget allows it: the budget is decremented and records the pod', async () => {
    await runningPod('ev-allowed', 'ev-allowed');
    await budget('pdb-allowed', 'ev-allowed', 1);
    const res = await evict('ev-allowed');
    expect(res.status, res.text).toBe(201);
    expect(await exists('ev-allowed')).toBe(false);
    const pdb = (await srv.api('GET', `${PDBS}/pdb-allowed`)).body;
    expect(pdb.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status.disruptedPods)).toEqual(['ev-allowed']);
    expect(pdb.status.conditions).toMatchObject([
      { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' },
    ]);
  });

  it('answers 429 "still being processed" while the budget status is behind its generation', async () => {
    await runningPod('ev-stale', 'ev-stale');
    await budget('pdb-stale', 'ev-stale', 1);
    const bumped = await srv.api('PATCH', `${PDBS}/pdb-stale`, { spec: { minAvailable: 0 } }, MERGE);
    expect(bumped.body.metadata.generation).toBe(2);
    const res = await evict('ev-stale');
    expect(res.status, res.text).toBe(429);
    expect(res.body.details.causes).toEqual([
      {
        reason: 'DisruptionBudget',
        message: 'The disruption budget pdb-stale is still being processed by the server.',
      },
    ]);
    expect(await exists('ev-stale')).toBe(true);
  });

  it('changes nothing on a dry run, by the query or by the DeleteOptions', async () => {
    await runningPod('ev-dry', 'ev-dry');
    await budget('pdb-dry', 'ev-dry', 1);
    for (const res of [
      await evict('ev-dry', 'policy/v1', undefined, '?dryRun=All'),
      await evict('ev-dry', 'policy/v1', { dryRun: ['All'] }),
    ]) {
      expect(res.status, res.text).toBe(201);
      expect(await exists('ev-dry')).toBe(true);
      const pdb = (await srv.api('GET', `${PDBS}/pdb-dry`)).body;
      expect(pdb.status.disruptionsAllowed).toBe(1);
      expect(pdb.status.disruptedPods).toBeUndefined();
    }
  });

  it('takes a policy/v1beta1 Eviction too', async () => {
    await runningPod('ev-beta', 'ev-beta');
    await budget('pdb-beta', 'ev-beta', 1);
    const res = await evict('ev-beta', 'policy/v1beta1');
    expect(res.status, res.text).toBe(201);
    expect(await exists('ev-beta')).toBe(false);
    expect((await srv.api('GET', `${PDBS}/pdb-beta`)).body.status.disruptionsAllowed).toBe(0);
  });

  it('deletes a Pending pod without looking at budgets, as upstream', async () => {
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    await srv.api('POST', PODS, {
      metadata: { name: 'ev-pending', labels: { app: 'ev-pending' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    await budget('pdb-pending', 'ev-pending', 0);
    const res = await evict('ev-pending');
    expect(res.status, res.text).toBe(201);
    expect(await exists('ev-pending')).toBe(false);
  });

  it('answers 500 InternalError when two budgets cover the pod, as upstream', async () => {
    await runningPod('ev-two', 'ev-two');
    await budget('pdb-two-a', 'ev-two', 1);
    await budget('pdb-two-b', 'ev-two', 1);
    const res = await evict('ev-two');
    expect(res.status, res.text).toBe(500);
    expect(res.body).toMatchObject({
      reason: 'InternalError',
      message:
        'Internal error occurred: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    });
    expect(await exists('ev-two')).toBe(true);
  });

  it('marks the pod DisruptionTarget=True before deleting it, and honours a stale resourceVersion precondition with 409', async () => {
    // Bound to a node: the delete is graceful, so the pod stays with its deletionTimestamp.
    await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } });
    const created = await srv.api('POST', PODS, {
      metadata: { name: 'ev-marked', labels: { app: 'ev-marked' } },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(created.status, created.text).toBe(201);
    const stale = await evict('ev-marked', 'policy/v1', { preconditions: { resourceVersion: '1' } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.message).toBe(
      `Operation cannot be fulfilled on Pod "ev-marked": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.body.metadata.resourceVersion}). The object might have been modified`,
    );
    const res = await evict('ev-marked');
    expect(res.status, res.text).toBe(201);
    const pod = (await srv.api('GET', `${PODS}/ev-marked`)).body;
    expect(pod.metadata.deletionTimestamp).toBeTruthy();
    expect(pod.status.conditions).toContainEqual(
      expect.objectContaining({
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'EvictionByEvictionAPI',
        message: 'Eviction API: evicting',
      }),
    );
  });

  it('answers 404 for a pod that does not exist', async () => {
    const res = await evict('ev-missing');
    expect(res.status, res.text).toBe(404);
  });
});

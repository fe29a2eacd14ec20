/**
 * The scheduler as a server runs it by default (`--scheduler=auto`, no simulated nodes): a pod
 * stays Pending with upstream's `PodScheduled=False` condition and a `FailedScheduling` event;
 * while a real kube-scheduler holds the Lease `kube-system/kube-scheduler`, pods are left to
 * it (no condition written); once its Lease expires, this server's scheduler decides again.
 */
import { describe, expect, it, vi } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

// The test servers leave the scheduler off unless asked: this is the server's own default.
const srv = useTestServer({ scheduler: 'auto' });
const NS = 'scheduler-default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler';

async function addPod(name: string): Promise<void> {
  const res = await srv.api('POST', PODS, {
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
  expect(res.status).toBe(201);
}

async function scheduledCondition(name: string) {
  const pod = (await srv.api('GET', `${PODS}/${name}`)).body;
  return (pod.status?.conditions ?? []).find((c: { type: string }) => c.type === 'PodScheduled');
}

/** A Lease as kube-scheduler's leader election writes it, renewed `agoSeconds` ago. */
function schedulerLease(agoSeconds: number) {
  const at = new Date(Date.now() - agoSeconds * 1000).toISOString().replace('Z', '000Z');
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'kube-scheduler', namespace: 'kube-system' },
    spec: { holderIdentity: 'real-scheduler_1234', leaseDurationSeconds: 15, acquireTime: at, renewTime: at },
  };
}

describe('the default scheduler', () => {
  it('marks a pod unschedulable with no nodes, as upstream, and reports FailedScheduling', async () => {
    expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    await addPod('lonely');
    await vi.waitFor(
      async () =>
        expect(await scheduledCondition('lonely')).toMatchObject({
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: 'no nodes available to schedule pods',
        }),
      { timeout: 10_000, interval: 100 },
    );
    const pod = (await srv.api('GET', `${PODS}/lonely`)).body;
    expect(pod.status.phase).toBe('Pending');
    expect(pod.spec.nodeName).toBeUndefined();
    await vi.waitFor(
      async () => {
        const events = (await srv.api('GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events`)).body.items;
        expect(events.map((e: { reason: string }) => e.reason)).toContain('FailedScheduling');
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('leaves pods to a kube-scheduler holding its Lease, and decides again once the Lease expires', async () => {
    expect(
      (await srv.api('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', schedulerLease(0))).status,
    ).toBe(201);
    // The stand-down decision is remembered for up to 2 s: a pod made after that is left alone.
    await new Promise((r) => setTimeout(r, 2500));
    await addPod('for-the-other');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await scheduledCondition('for-the-other')).toBeUndefined();
    // The other scheduler stops renewing: its Lease is past its 15 s duration.
    const current = (await srv.api('GET', LEASE)).body;
    const expired = { ...schedulerLease(60), metadata: current.metadata };
    expect((await srv.api('PUT', LEASE, expired)).status).toBe(200);
    await vi.waitFor(
      async () =>
        expect(await scheduledCondition('for-the-other')).toMatchObject({ status: 'False', reason: 'Unschedulable' }),
      { timeout: 10_000, interval: 100 },
    );
  });
});

/**
 * The EndpointSlice reconciler with existing slices, ported from upstream 1.33
 * k8s.io/endpointslice/reconciler_test.go: TestReconcileEndpointSlicesSomePreexisting(+WorseAllocation),
 * TestReconcileEndpointSlicesUpdating, TestReconcileEndpointSlicesServicesLabelsUpdating,
 * TestReconcileEndpointSlicesServicesReservedLabels, TestReconcileEndpointSlicesRecycling,
 * TestReconcileEndpointSlicesUpdatePacking, TestReconcilerFinalizeSvcDeletionTimestamp
 * (essentials), TestReconcilerPodMissingNode (essentials). Metrics are not implemented, so
 * their expectations are not ported.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointSlice } from '../../resources/endpointslices/endpointslices.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { podToEndpoint } from './endpoint.js';
import {
  FakeSliceClient,
  lengths,
  newEmptyEndpointSlice,
  newPod,
  newService,
  podsOf,
  reconcile,
  seed,
} from './slices.fixture.js';

const ns = 'test';

/** Slices `<svc>-<n>` holding the endpoints of `pods` picked by `pick(index)`. */
function presliced(svc: Service, pods: Pod[], groups: ((i: number) => boolean)[]): EndpointSlice[] {
  return groups.map((pick, n) => {
    const slice = newEmptyEndpointSlice(n + 1, svc);
    slice.endpoints = pods.filter((_, i) => pick(i)).map((p) => podToEndpoint(p, { metadata: {} }, svc, 'IPv4'));
    return slice;
  });
}

describe('reconcileSlices: existing slices', () => {
  it('tops up the slice closest to full and creates one of 100 (…SomePreexisting)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    const pods = podsOf(250);
    const existing = presliced(svc, pods, [(i) => i % 4 === 1 && i < 246, (i) => i % 4 === 3 && i < 246]);
    seed(c, existing);
    const before = structuredClone(existing);
    await reconcile(c, svc, pods, existing);
    expect(c.verbs()).toEqual(['create', 'update']);
    expect(lengths(c.all())).toEqual([61, 89, 100]);
    expect(existing).toEqual(before);
  });

  it('creates rather than updates two slices when the rest does not fit one (…SomePreexistingWorseAllocation)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    const pods = podsOf(300);
    const existing = presliced(svc, pods, [(i) => i % 4 === 1 && i < 296, (i) => i % 4 === 3 && i < 296]);
    seed(c, existing);
    await reconcile(c, svc, pods, existing);
    expect(c.verbs()).toEqual(['create', 'create']);
    expect(lengths(c.all())).toEqual([52, 74, 74, 100]);
  });

  it.each([
    [
      'a target port changes: all updated',
      (s: Service) => (s.spec!.ports![0].targetPort = 81),
      ['update', 'update', 'update'],
    ],
    [
      'the Service’s labels change: all updated',
      (s: Service) => (s.metadata.labels = { foo: 'bar' }),
      ['update', 'update', 'update'],
    ],
    [
      'only reserved labels change: nothing written',
      (s: Service) =>
        (s.metadata.labels = {
          'kubernetes.io/service-name': 'bad',
          'endpointslice.kubernetes.io/managed-by': 'actor',
          'service.kubernetes.io/headless': 'invalid',
        }),
      [],
    ],
  ])('when %s (…Updating, …ServicesLabelsUpdating, …ServicesReservedLabels)', async (_n, change, verbs) => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    const pods = podsOf(250);
    await reconcile(c, svc, pods);
    c.actions.length = 0;
    change(svc);
    await reconcile(c, svc, pods, c.all());
    expect(c.verbs()).toEqual(verbs);
    expect(lengths(c.all())).toEqual([50, 100, 100]);
    if (svc.metadata.labels?.foo) expect(c.all().every((s) => s.metadata.labels?.foo === 'bar')).toBe(true);
  });

  it('leaves 10 slices of 30 alone, then repacks them into 3 on a port change (…Recycling)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    const pods = podsOf(300);
    const existing = presliced(
      svc,
      pods,
      Array.from({ length: 10 }, (_, n) => (i: number) => Math.floor(i / 30) === n),
    );
    seed(c, existing);
    await reconcile(c, svc, pods, existing);
    expect(c.verbs()).toEqual([]);
    svc.spec!.ports![0].targetPort = 81;
    await reconcile(c, svc, pods, existing);
    expect(c.verbs().sort()).toEqual([...Array(7).fill('delete'), ...Array(3).fill('update')]);
    expect(lengths(c.all())).toEqual([100, 100, 100]);
  });

  it('adds new endpoints to the fuller of the slices being updated (…UpdatePacking)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    const pods = [
      ...Array.from({ length: 80 }, (_, i) => newPod(i, ns, true, 1, false)),
      ...Array.from({ length: 20 }, (_, i) => newPod(100 + i, ns, true, 1, false)),
    ];
    const existing = presliced(svc, pods, [(i) => i < 80, (i) => i >= 80]);
    seed(c, existing);
    pods.forEach((p, i) => {
      if (i % 10 === 0) p.status!.conditions = [{ type: 'Ready', status: 'False' }];
    });
    const all = [...pods, ...Array.from({ length: 15 }, (_, i) => newPod(200 + i, ns, true, 1, false))];
    await reconcile(c, svc, all, existing);
    expect(c.verbs()).toEqual(['update', 'update']);
    expect(lengths(c.all())).toEqual([20, 95]);
  });

  it('creates nothing for a Service being deleted but still updates (TestReconcilerFinalizeSvcDeletionTimestamp)', async () => {
    const c = new FakeSliceClient();
    const svc = newService('foo', ns);
    svc.metadata.deletionTimestamp = new Date().toISOString();
    await reconcile(c, svc, podsOf(5));
    expect(c.verbs()).toEqual([]);
    const existing = presliced(newService('foo', ns), podsOf(2), [() => true]);
    seed(c, existing);
    await reconcile(c, svc, podsOf(5), existing);
    expect(c.verbs()).toEqual(['update']);
  });

  it.each([
    ['publishNotReadyAddresses false', false, true, 1],
    ['publishNotReadyAddresses true', true, false, 2],
  ])(
    'skips a pod on a missing node unless %s, and fails (TestReconcilerPodMissingNode)',
    async (_n, publish, fails, want) => {
      const c = new FakeSliceClient();
      const svc = newService('foo', ns);
      svc.spec!.publishNotReadyAddresses = publish;
      const pods = podsOf(2);
      pods[1].spec!.nodeName = 'node-2';
      const run = reconcile(c, svc, pods);
      if (fails) await expect(run).rejects.toThrow('Node node-2 Not Found');
      else await run;
      expect(c.all().flatMap((s) => s.endpoints ?? [])).toHaveLength(want);
    },
  );
});

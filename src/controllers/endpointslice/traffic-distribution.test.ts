/**
 * Hints from trafficDistribution, after upstream 1.33 k8s.io/endpointslice/trafficdist/
 * trafficdist_test.go (TestReconcileHints essentials) and reconciler_test.go
 * TestReconcile_TrafficDistribution (essentials): PreferClose hints ready endpoints for their
 * zone, including in slices that otherwise would not change; without it (or with the
 * topology-mode annotation) written slices carry no hints.
 */
import { describe, expect, it } from 'vitest';
import type { Service } from '../../resources/services/services.schema.js';
import { hintsEnabled } from './traffic-distribution.js';
import { FakeSliceClient, newPod, newService, reconcile } from './slices.fixture.js';

const ns = 'test';
const zoned = (c: FakeSliceClient) => {
  c.nodes.set('node-1', { metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } });
  return c;
};
const pods = () => [newPod(1, ns, true, 1, false), newPod(2, ns, false, 1, false)];
const hintsOf = (c: FakeSliceClient) =>
  Object.fromEntries(
    c
      .all()
      .flatMap((s) => s.endpoints ?? [])
      .map((e) => [e.targetRef?.name, e.hints]),
  );
const svcWith = (trafficDistribution?: string, annotations?: Record<string, string>): Service => {
  const s = newService('foo', ns);
  if (trafficDistribution) s.spec!.trafficDistribution = trafficDistribution;
  if (annotations) s.metadata.annotations = annotations;
  return s;
};

describe('trafficDistribution hints', () => {
  it('PreferClose hints the ready endpoints for their zone', async () => {
    const c = zoned(new FakeSliceClient());
    await reconcile(c, svcWith('PreferClose'), pods());
    expect(hintsOf(c)).toEqual({ pod1: { forZones: [{ name: 'zone-a' }] }, pod2: undefined });
  });

  it.each([
    ['no trafficDistribution', svcWith()],
    ['the topology-mode annotation', svcWith('PreferClose', { 'service.kubernetes.io/topology-mode': 'Auto' })],
  ])('gives no hints with %s', async (_n, svc) => {
    const c = zoned(new FakeSliceClient());
    await reconcile(c, svc, pods());
    expect(hintsOf(c)).toEqual({ pod1: undefined, pod2: undefined });
  });

  it('updates an otherwise unchanged slice when PreferClose is set, and clears hints when dropped with a change', async () => {
    const c = zoned(new FakeSliceClient());
    await reconcile(c, svcWith(), pods());
    c.actions.length = 0;
    await reconcile(c, svcWith('PreferClose'), pods(), c.all());
    expect(c.verbs()).toEqual(['update']);
    expect(hintsOf(c).pod1).toEqual({ forZones: [{ name: 'zone-a' }] });
    c.actions.length = 0;
    await reconcile(c, svcWith('PreferClose'), pods(), c.all());
    expect(c.verbs()).toEqual([]);
    const more = [...pods(), newPod(3, ns, true, 1, false)];
    await reconcile(c, svcWith(), more, c.all());
    expect(hintsOf(c)).toEqual({ pod1: undefined, pod2: undefined, pod3: undefined });
  });

  it.each([
    [{ 'service.kubernetes.io/topology-aware-hints': 'auto' }, true],
    [{ 'service.kubernetes.io/topology-mode': 'Auto' }, true],
    [
      { 'service.kubernetes.io/topology-aware-hints': 'disabled', 'service.kubernetes.io/topology-mode': 'Auto' },
      false,
    ],
    [{}, false],
  ])('hintsEnabled(%o) is %s (Test_hintsEnabled)', (annotations, want) => {
    expect(hintsEnabled(annotations)).toBe(want);
  });
});

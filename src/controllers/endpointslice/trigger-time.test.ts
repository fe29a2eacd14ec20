/**
 * The last change trigger time, ported from upstream 1.33 k8s.io/endpointslice/util/
 * trigger_time_tracker_test.go (TestNewServiceNoPods … TestServiceUpdatedNoPodChange), and the
 * annotation's Go RFC3339Nano form.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { Service } from '../../resources/services/services.schema.js';
import { formatRFC3339Nano, TriggerTimeTracker, withTriggerTime } from './trigger-time.js';

const NS = 'ttNamespace1';
const t = (n: number) => Date.UTC(2019, 0, 1, 0, 0, n);
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const svc = (created: number): Service => ({
  metadata: { namespace: NS, name: 'my-service', creationTimestamp: iso(created) },
});
const pod = (name: string, ready: number): Pod => ({
  metadata: { namespace: NS, name },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: iso(ready) }] },
});

describe('TriggerTimeTracker', () => {
  it('answers a new Service’s creation, with or without pods (NewServiceNoPods, NewServiceExistingPods)', () => {
    expect(new TriggerTimeTracker().compute(NS, svc(t(2)), [])).toBe(t(2));
    expect(
      new TriggerTimeTracker().compute(NS, svc(t(3)), [pod('pod1', t(0)), pod('pod2', t(1)), pod('pod3', t(5))]),
    ).toBe(t(3));
  });

  it('answers the earliest new ready time of added pods (PodsAdded)', () => {
    const tr = new TriggerTimeTracker();
    expect(tr.compute(NS, svc(t(0)), [])).toBe(t(0));
    expect(tr.compute(NS, svc(t(0)), [pod('pod1', t(2)), pod('pod2', t(1))])).toBe(t(1));
  });

  it('answers the earliest changed ready time, or none when nothing changed (PodsUpdated, PodsUpdatedNoOp)', () => {
    const tr = new TriggerTimeTracker();
    const s = svc(t(0));
    const [p1, p2, p3] = [pod('pod1', t(1)), pod('pod2', t(2)), pod('pod3', t(3))];
    expect(tr.compute(NS, s, [p1, p2, p3])).toBe(t(0));
    expect(tr.compute(NS, s, [p1, p2, p3])).toBe(0);
    expect(tr.compute(NS, s, [pod('pod1', t(5)), pod('pod2', t(4)), p3])).toBe(t(4));
  });

  it('answers none for a removed pod and the new time when it comes back (PodDeletedThenAdded)', () => {
    const tr = new TriggerTimeTracker();
    const s = svc(t(0));
    expect(tr.compute(NS, s, [pod('pod1', t(1)), pod('pod2', t(2))])).toBe(t(0));
    expect(tr.compute(NS, s, [pod('pod1', t(1))])).toBe(0);
    expect(tr.compute(NS, s, [pod('pod1', t(1)), pod('pod2', t(4))])).toBe(t(4));
  });

  it('starts over for a re-created Service, and has no time for a Service update (ServiceDeletedThenAdded, ServiceUpdatedNoPodChange)', () => {
    const tr = new TriggerTimeTracker();
    const pods = [pod('pod1', t(1)), pod('pod2', t(2))];
    expect(tr.compute(NS, svc(t(0)), pods)).toBe(t(0));
    expect(
      tr.compute(NS, { ...svc(t(0)), spec: { selector: {}, ports: [{ port: 80, targetPort: 8080 }] } }, pods),
    ).toBe(0);
    tr.deleteService(NS, 'my-service');
    expect(tr.compute(NS, svc(t(3)), pods)).toBe(t(3));
  });
});

describe('the annotation', () => {
  it('is written as Go’s RFC3339Nano in UTC and removed for no time', () => {
    expect(formatRFC3339Nano(Date.UTC(2018, 0, 1))).toBe('2018-01-01T00:00:00Z');
    expect(formatRFC3339Nano(Date.UTC(2018, 0, 1, 0, 0, 0, 120))).toBe('2018-01-01T00:00:00.12Z');
    const key = 'endpoints.kubernetes.io/last-change-trigger-time';
    expect(withTriggerTime({ a: 'b', [key]: 'x' }, 0)).toEqual({ a: 'b' });
    expect(withTriggerTime(undefined, Date.UTC(2018, 0, 1))).toEqual({ [key]: '2018-01-01T00:00:00Z' });
  });
});

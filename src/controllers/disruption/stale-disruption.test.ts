/**
 * Upstream 1.33 disruption_test.go TestStalePodDisruption: a DisruptionTarget=True condition
 * on a pod not being deleted is set False once two minutes passed; not before, not on a pod
 * being deleted, not on a pod without it; the kubelet's own condition and terminal pods are
 * left alone (nonTerminatingPodHasStaleDisruptionCondition).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { FakeDisruptionClient, newPod } from './fake-client.fixture.js';
import { staleDisruptionWait, syncStalePodDisruption } from './stale-disruption.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const T0 = '2026-11-28T12:00:00Z';
const MIN2 = 2 * 60_000;

function pod(opts: { condition?: string; deleting?: boolean; reason?: string; phase?: string }): Pod {
  const p = newPod('foo');
  p.status = {
    ...(opts.phase ? { phase: opts.phase } : {}),
    conditions: opts.condition
      ? [
          {
            type: 'DisruptionTarget',
            status: opts.condition,
            lastTransitionTime: T0,
            ...(opts.reason ? { reason: opts.reason } : {}),
          },
        ]
      : [],
  };
  if (opts.deleting) p.metadata.deletionTimestamp = T0;
  return p;
}

describe('TestStalePodDisruption', () => {
  it.each([
    ['stale pod disruption', pod({ condition: 'True' }), MIN2 + 1000, 'False'],
    ['pod disruption in progress', pod({ condition: 'True' }), MIN2 - 1000, 'True'],
    ['pod disruption actuated', pod({ condition: 'True', deleting: true }), MIN2 + 1000, 'True'],
    ['no pod disruption', pod({ deleting: true }), MIN2 + 1000, undefined],
    ['pod disruption cleared', pod({ condition: 'False', deleting: true }), MIN2 + 1000, 'False'],
  ] as const)('%s', async (_name, p, passed, want) => {
    const c = new FakeDisruptionClient();
    c.pods.push(p);
    await syncStalePodDisruption(c, 'default', 'foo', NOW + passed);
    const conds = (c.pods[0].status?.conditions ?? []).map(({ type, status }) => ({ type, status }));
    expect(conds).toEqual(want ? [{ type: 'DisruptionTarget', status: want }] : []);
    expect(c.podStatusWrites).toBe(want === 'False' && p.status?.conditions?.[0]?.status === 'True' ? 1 : 0);
  });

  it('the condition set False has a new lastTransitionTime and no reason', async () => {
    const c = new FakeDisruptionClient();
    c.pods.push(pod({ condition: 'True', reason: 'EvictionByEvictionAPI' }));
    await syncStalePodDisruption(c, 'default', 'foo', NOW + MIN2 + 1000);
    expect(c.pods[0].status?.conditions).toEqual([
      { type: 'DisruptionTarget', status: 'False', lastTransitionTime: '2026-11-28T12:02:01Z' },
    ]);
  });

  it('a condition not yet stale asks to be checked again when it will be', async () => {
    const c = new FakeDisruptionClient();
    c.pods.push(pod({ condition: 'True' }));
    expect(await syncStalePodDisruption(c, 'default', 'foo', NOW + 30_000)).toEqual({ retryAfterMs: 90_000 });
  });

  it("the kubelet's condition and a terminal pod's are never stale", () => {
    expect(
      staleDisruptionWait(pod({ condition: 'True', reason: 'TerminationByKubelet' }), NOW + 10 * MIN2),
    ).toBeUndefined();
    expect(staleDisruptionWait(pod({ condition: 'True', phase: 'Failed' }), NOW + 10 * MIN2)).toBeUndefined();
    expect(staleDisruptionWait(pod({ condition: 'True' }), NOW + 10 * MIN2)).toBe(0);
  });
});

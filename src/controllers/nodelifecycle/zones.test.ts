/**
 * The zone logic of upstream 1.33 node_lifecycle_controller.go: ComputeZoneState (cases of
 * TestMonitorNodeHealthEvictPodsWithDisruption's zones), GetZoneKey, the QPS of each state
 * (HealthyQPSFunc, ReducedQPSFunc), and rate_limited_queue_test.go essentials
 * (TestAddNode, TestDelNode, TestTry, TestSwapLimiter).
 */
import { describe, expect, it } from 'vitest';
import { cond } from './lifecycle.fixture.js';
import { computeZoneState, RateLimitedTimedQueue, zoneKey, zoneRate, type EvictionSettings } from './zones.js';

const ready = (status: string) => cond('Ready', status, '2017-01-01T00:00:00Z');

describe('ComputeZoneState', () => {
  const cases: [string, (string | undefined)[], number, string][] = [
    ['all Ready', ['True', 'True'], 0, 'Normal'],
    ['none Ready', ['False', 'Unknown'], 2, 'FullDisruption'],
    ['a node without Ready counts as not Ready', [undefined], 1, 'FullDisruption'],
    ['2 of 3 not Ready: too few to be partial', ['False', 'False', 'True'], 2, 'Normal'],
    ['3 of 4 not Ready (75% >= 55%)', ['False', 'Unknown', 'False', 'True'], 3, 'PartialDisruption'],
    ['3 of 6 not Ready (50% < 55%)', ['False', 'False', 'False', 'True', 'True', 'True'], 3, 'Normal'],
    ['no nodes', [], 0, 'Normal'],
  ];
  it.each(cases)('%s', (_d, statuses, unhealthy, state) =>
    expect(
      computeZoneState(
        statuses.map((s) => (s ? ready(s) : undefined)),
        0.55,
      ),
    ).toEqual([unhealthy, state]),
  );
});

describe('zones and rates', () => {
  it('keys a zone by region and zone, stable or beta labels', () => {
    const meta = (labels: Record<string, string>) => ({ metadata: { labels } });
    expect(zoneKey(meta({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' }))).toBe(
      'r:\x00:z',
    );
    expect(zoneKey(meta({ 'failure-domain.beta.kubernetes.io/zone': 'z' }))).toBe(':\x00:z');
    expect(zoneKey(meta({}))).toBe('');
  });

  it('uses the normal rate, the secondary one for large partially disrupted zones, else none', () => {
    const s: EvictionSettings = {
      evictionLimiterQps: 0.1,
      secondaryEvictionLimiterQps: 0.01,
      largeClusterThreshold: 50,
      unhealthyZoneThreshold: 0.55,
    };
    expect(zoneRate('Normal', 10, s)).toBe(0.1);
    expect(zoneRate('FullDisruption', 10, s)).toBe(0.1);
    expect(zoneRate('PartialDisruption', 51, s)).toBe(0.01);
    expect(zoneRate('PartialDisruption', 50, s)).toBe(0);
  });
});

describe('RateLimitedTimedQueue', () => {
  it('TestAddNode / TestDelNode: a value is queued once until removed', () => {
    const q = new RateLimitedTimedQueue(1, () => 0);
    expect(q.add('first', '11111')).toBe(true);
    expect(q.add('second', '22222')).toBe(true);
    expect(q.add('first', '11111')).toBe(false);
    expect(q.values()).toEqual(['first', 'second']);
    expect(q.remove('first')).toBe(true);
    expect(q.values()).toEqual(['second']);
    expect(q.remove('first')).toBe(false);
  });

  it('TestTry: handled at the rate; a handled value stays known until removed; a retry waits', async () => {
    let now = 0;
    const q = new RateLimitedTimedQueue(1, () => now);
    for (const v of ['first', 'second', 'third']) q.add(v, v);
    const seen: string[] = [];
    const handle = async ({ value }: { value: string }) => {
      seen.push(value);
      return value === 'second' ? 1000 : (true as const);
    };
    await q.try(handle);
    expect(seen).toEqual(['first']);
    now += 1000;
    await q.try(handle);
    now += 1000;
    await q.try(handle);
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(q.add('first', 'first')).toBe(false);
    now += 5000;
    await q.try(handle);
    expect(seen).toEqual(['first', 'second', 'third', 'second']);
  });

  it('TestSwapLimiter: a rate of 0 stops everything', async () => {
    const q = new RateLimitedTimedQueue(1, () => 0);
    q.add('first', '1');
    q.swapLimiter(0);
    const seen: string[] = [];
    await q.try(async ({ value }) => (seen.push(value), true));
    expect(seen).toEqual([]);
  });
});

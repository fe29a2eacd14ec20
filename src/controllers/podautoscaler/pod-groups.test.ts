/**
 * groupPods and calculatePodRequests, ported from upstream 1.33
 * pkg/controller/podautoscaler/replica_calculator_test.go TestGroupPods and
 * TestCalculatePodRequests (cpu initialization period 2 min, readiness delay 10 s: upstream's
 * testing values). A sample without a time is at Go's zero time, as upstream's.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodMetric } from './metrics/types.js';
import { groupPods, podRequests } from './pod-groups.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ZERO = Date.parse('0001-01-01T00:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const MIN = 60_000;

function pod(name: string, phase: string, startAgo?: number, ready?: [string, number]): Pod {
  return {
    metadata: { name },
    status: {
      phase,
      ...(startAgo !== undefined ? { startTime: at(startAgo) } : {}),
      ...(ready ? { conditions: [{ type: 'Ready', status: ready[0], lastTransitionTime: at(ready[1]) }] } : {}),
    },
  } as Pod;
}
const sample = (timestampAgo?: number, windowMs = 0): PodMetric => ({
  value: 1,
  timestamp: timestampAgo === undefined ? ZERO : NOW - timestampAgo,
  windowMs,
});

interface Case {
  pods: Pod[];
  metrics: Record<string, PodMetric>;
  resource: string;
  ready: number;
  unready?: string[];
  missing?: string[];
  ignored?: string[];
}

const cases: Record<string, Case> = {
  void: { pods: [], metrics: {}, resource: 'cpu', ready: 0 },
  'count in a ready pod - memory': {
    pods: [pod('bentham', 'Succeeded')],
    metrics: { bentham: sample(0, MIN) },
    resource: 'memory',
    ready: 1,
  },
  'unready a pod without ready condition - CPU': {
    pods: [pod('lucretius', 'Succeeded', 0)],
    metrics: { lucretius: sample() },
    resource: 'cpu',
    ready: 0,
    unready: ['lucretius'],
  },
  'count in a ready pod with fresh metrics during initialization period - CPU': {
    pods: [pod('bentham', 'Succeeded', MIN, ['True', 30_000])],
    metrics: { bentham: sample(0, 30_000) },
    resource: 'cpu',
    ready: 1,
  },
  'unready a ready pod without fresh metrics during initialization period - CPU': {
    pods: [pod('bentham', 'Succeeded', MIN, ['True', 30_000])],
    metrics: { bentham: sample(0, 60_000) },
    resource: 'cpu',
    ready: 0,
    unready: ['bentham'],
  },
  'unready an unready pod during initialization period - CPU': {
    pods: [pod('lucretius', 'Succeeded', 10 * MIN, ['False', 9 * MIN + 54_000])],
    metrics: { lucretius: sample() },
    resource: 'cpu',
    ready: 0,
    unready: ['lucretius'],
  },
  'count in a ready pod without fresh metrics after initialization period - CPU': {
    pods: [pod('bentham', 'Succeeded', 3 * MIN, ['True', 3 * MIN])],
    metrics: { bentham: sample(2 * MIN, MIN) },
    resource: 'cpu',
    ready: 1,
  },
  'count in an unready pod that was ready after initialization period - CPU': {
    pods: [pod('lucretius', 'Succeeded', 10 * MIN, ['False', 9 * MIN])],
    metrics: { lucretius: sample() },
    resource: 'cpu',
    ready: 1,
  },
  'unready pod that has never been ready after initialization period - CPU': {
    pods: [pod('lucretius', 'Succeeded', 10 * MIN, ['False', 9 * MIN + 50_000])],
    metrics: { lucretius: sample() },
    resource: 'cpu',
    ready: 1,
  },
  'a missing pod': {
    pods: [pod('epicurus', 'Succeeded', 3 * MIN)],
    metrics: {},
    resource: 'cpu',
    ready: 0,
    missing: ['epicurus'],
  },
  'several pods': {
    pods: [
      pod('lucretius', 'Succeeded', 0),
      pod('niccolo', 'Succeeded', 3 * MIN, ['True', 3 * MIN]),
      pod('epicurus', 'Succeeded', 3 * MIN),
    ],
    metrics: { lucretius: sample(), niccolo: sample() },
    resource: 'cpu',
    ready: 1,
    unready: ['lucretius'],
    missing: ['epicurus'],
  },
  'pending pods are unreadied': {
    pods: [pod('unscheduled', 'Pending')],
    metrics: {},
    resource: 'cpu',
    ready: 0,
    unready: ['unscheduled'],
  },
  'ignore pods with deletion timestamps': {
    pods: [
      { ...pod('deleted', 'Pending'), metadata: { name: 'deleted', deletionTimestamp: '1970-01-01T00:00:01Z' } } as Pod,
    ],
    metrics: { deleted: sample() },
    resource: 'cpu',
    ready: 0,
    ignored: ['deleted'],
  },
  'ignore pods in a failed state': {
    pods: [pod('failed', 'Failed')],
    metrics: { failed: sample() },
    resource: 'cpu',
    ready: 0,
    ignored: ['failed'],
  },
};

describe('groupPods (upstream TestGroupPods)', () => {
  for (const [name, tc] of Object.entries(cases))
    it(name, () => {
      const got = groupPods(
        tc.pods,
        new Map(Object.entries(tc.metrics)),
        tc.resource,
        { cpuInitializationPeriodMs: 2 * MIN, delayOfInitialReadinessStatusMs: 10_000 },
        NOW,
      );
      expect(got.readyPodCount).toBe(tc.ready);
      expect([...got.unready].sort()).toEqual(tc.unready ?? []);
      expect([...got.missing].sort()).toEqual(tc.missing ?? []);
      expect([...got.ignored].sort()).toEqual(tc.ignored ?? []);
    });
});

describe('podRequests (upstream TestCalculatePodRequests)', () => {
  const withContainers = (containers: unknown[], initContainers: unknown[] = []) =>
    ({ metadata: { name: 'test-pod', namespace: 'test-namespace' }, spec: { containers, initContainers } }) as Pod;
  const cpu = (m: number) => ({ requests: { cpu: `${m}m` } });
  const two = withContainers([
    { name: 'container1', resources: cpu(100) },
    { name: 'container2', resources: cpu(50) },
  ]);

  it('void', () => expect(podRequests([], '', 'cpu')).toEqual(new Map()));
  it('pod with regular containers', () => expect(podRequests([two], '', 'cpu')).toEqual(new Map([['test-pod', 150]])));
  it('calculate requests with special container', () =>
    expect(podRequests([two], 'container1', 'cpu')).toEqual(new Map([['test-pod', 100]])));
  it('container missing requests', () =>
    expect(() => podRequests([withContainers([{ name: 'container1' }])], '', 'cpu')).toThrow(
      'missing request for cpu in container container1 of Pod test-pod',
    ));
  it('pod with restartable init containers', () => {
    const p = withContainers(
      [{ name: 'container1', resources: cpu(100) }],
      [
        { name: 'init-container1', resources: cpu(20) },
        { name: 'restartable-container1', restartPolicy: 'Always', resources: cpu(50) },
      ],
    );
    expect(podRequests([p], '', 'cpu')).toEqual(new Map([['test-pod', 150]]));
  });
});

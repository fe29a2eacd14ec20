/**
 * Utilization helpers, ported from upstream 1.33 pkg/controller/podautoscaler/metrics
 * utilization_test.go, and the resource metric of PodMetrics (client.go getPodMetrics,
 * getContainerMetrics and GetResourceMetric's errors).
 */
import { describe, expect, it } from 'vitest';
import { getResourceMetric } from './resource-metrics.js';
import type { PodMetrics, PodMetricsInfo } from './types.js';
import { metricUsageRatio, resourceUtilizationRatio } from './utilization.js';

const info = (values: Record<string, number>): PodMetricsInfo =>
  new Map(Object.entries(values).map(([k, value]) => [k, { value, timestamp: 0, windowMs: 0 }]));
const requests = (values: Record<string, number>) => new Map(Object.entries(values));

describe('resourceUtilizationRatio (upstream TestGetResourceUtilizationRatio*)', () => {
  const expected = { ratio: 1.26, utilization: 63, rawAverage: 63 };
  it('BaseCase', () =>
    expect(
      resourceUtilizationRatio(
        info({ 'test-pod-0': 50, 'test-pod-1': 76 }),
        requests({ 'test-pod-0': 100, 'test-pod-1': 100 }),
        50,
      ),
    ).toEqual(expected));
  it('IgnorePodsWithNoRequest', () =>
    expect(
      resourceUtilizationRatio(
        info({ 'test-pod-0': 50, 'test-pod-1': 76, 'test-pod-no-request': 100 }),
        requests({ 'test-pod-0': 100, 'test-pod-1': 100 }),
        50,
      ),
    ).toEqual(expected));
  it('ExtraRequest', () =>
    expect(
      resourceUtilizationRatio(
        info({ 'test-pod-0': 50, 'test-pod-1': 76 }),
        requests({ 'test-pod-0': 100, 'test-pod-1': 100, 'test-pod-extra-request': 500 }),
        50,
      ),
    ).toEqual(expected));
  it('NoRequests', () =>
    expect(() => resourceUtilizationRatio(info({ 'test-pod-0': 50, 'test-pod-1': 76 }), requests({}), 50)).toThrow(
      'no metrics returned matched known pods',
    ));
});

describe('metricUsageRatio (upstream TestGetMetricUsageRatioBaseCase)', () => {
  it('BaseCase', () =>
    expect(metricUsageRatio(info({ 'test-pod-0': 5000, 'test-pod-1': 10000 }), 10000)).toEqual({
      ratio: 0.75,
      usage: 7500,
    }));
});

describe('getResourceMetric', () => {
  const items: PodMetrics[] = [
    {
      metadata: { name: 'a', namespace: 'ns' },
      timestamp: '2026-01-01T00:00:00Z',
      window: '30s',
      containers: [
        { name: 'app', usage: { cpu: '250m', memory: '10Mi' } },
        { name: 'sidecar', usage: { cpu: '0.5' } },
      ],
    },
    {
      metadata: { name: 'b', namespace: 'ns' },
      containers: [
        { name: 'app', usage: { cpu: '1' } },
        { name: 'sidecar', usage: {} },
      ],
    },
    { metadata: { name: 'c', namespace: 'ns' }, containers: [] },
  ];
  const client = (list: PodMetrics[] | Error) => ({
    podMetrics: async () => {
      if (list instanceof Error) throw list;
      return list;
    },
  });

  it('sums a pod over its containers, leaving out pods missing the resource or without containers', async () => {
    const got = await getResourceMetric(client(items), 'cpu', 'ns', 'app=x', '');
    expect([...got.metrics]).toEqual([
      ['a', { value: 750, timestamp: Date.parse('2026-01-01T00:00:00Z'), windowMs: 30_000 }],
    ]);
    expect(got.timestamp).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('takes one container, and fails for a pod without it', async () => {
    const got = await getResourceMetric(client(items.slice(0, 2)), 'cpu', 'ns', '', 'app');
    expect([...got.metrics].map(([k, v]) => [k, v.value])).toEqual([
      ['a', 250],
      ['b', 1000],
    ]);
    await expect(getResourceMetric(client(items), 'cpu', 'ns', '', 'app')).rejects.toThrow(
      'failed to get container metrics: container app not present in metrics for pod ns/c',
    );
  });

  it('wraps the API failure and an empty list as upstream does', async () => {
    await expect(getResourceMetric(client(new Error('boom')), 'cpu', 'ns', '', '')).rejects.toThrow(
      'unable to fetch metrics from resource metrics API: boom',
    );
    await expect(getResourceMetric(client([]), 'cpu', 'ns', '', '')).rejects.toThrow(
      'no metrics returned from resource metrics API',
    );
  });
});

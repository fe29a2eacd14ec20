/**
 * The harness of upstream 1.33 replica_calculator_test.go (replicaCalcTestCase.runTest for
 * resource metrics): pods named `test-pod-<i>` with two containers each requesting the case's
 * request, PodMetrics of two containers per pod at the case's levels, tolerance 0.1, cpu
 * initialization period 2 min and readiness delay 10 s (upstream's testing values). "Hot" pods
 * started now, "cool" ones 3 min ago.
 */
import { expect } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { milliQuantity } from './compute-metrics.js';
import type { PodMetrics } from './metrics/types.js';
import { ReplicaCalculator } from './replica-calculator.js';

export const NOW = Date.parse('2026-01-01T12:00:00Z');
export const HOT = new Date(NOW).toISOString();
export const COOL = new Date(NOW - 3 * 60_000).toISOString();

export interface Case {
  readonly currentReplicas: number;
  readonly expectedReplicas?: number;
  readonly expectedError?: string;
  readonly requests: readonly string[];
  /** Per pod, per container usage (milli-cpu); a number is both containers. */
  readonly levels: readonly (number | readonly number[])[];
  readonly podNames?: readonly string[];
  readonly targetUtilization: number;
  readonly expectedUtilization?: number;
  readonly expectedValue?: number;
  readonly container?: string;
  readonly podReadiness?: readonly ('True' | 'False')[];
  readonly podStartTime?: readonly string[];
  readonly podPhase?: readonly string[];
  readonly podDeletionTimestamp?: readonly boolean[];
}

function podsOf(tc: Case): Pod[] {
  const count = Math.max(tc.currentReplicas, tc.podPhase?.length ?? 0);
  return Array.from({ length: count }, (_, i): Pod => {
    const request = tc.requests[i];
    const resources = request !== undefined ? { requests: { cpu: request } } : {};
    return {
      metadata: {
        name: `test-pod-${i}`,
        namespace: 'test-namespace',
        labels: { name: 'test-pod' },
        ...(tc.podDeletionTimestamp?.[i] ? { deletionTimestamp: new Date(NOW).toISOString() } : {}),
      },
      spec: {
        containers: [
          { name: 'container1', resources },
          { name: 'container2', resources },
        ],
      },
      status: {
        phase: tc.podPhase?.[i] ?? 'Running',
        startTime: tc.podStartTime?.[i] ?? '0001-01-01T00:00:00Z',
        conditions: [{ type: 'Ready', status: tc.podReadiness?.[i] ?? 'True' }],
      },
    } as Pod;
  });
}

function metricsOf(tc: Case): PodMetrics[] {
  return tc.levels.map((level, i) => {
    const values = typeof level === 'number' ? [level, level] : level;
    return {
      metadata: { name: tc.podNames?.[i] ?? `test-pod-${i}`, namespace: 'test-namespace' },
      window: '1m0s',
      // Upstream builds numContainersPerPod (2) entries; those without a level stay empty.
      containers: [0, 1].map((j) =>
        values[j] === undefined ? {} : { name: `container${j + 1}`, usage: { cpu: milliQuantity(values[j]!) } },
      ),
    };
  });
}

export async function run(tc: Case) {
  const calc = new ReplicaCalculator({
    metrics: { podMetrics: async () => metricsOf(tc) },
    listPods: async () => podsOf(tc),
    tolerance: 0.1,
    cpuInitializationPeriodMs: 2 * 60_000,
    delayOfInitialReadinessStatusMs: 10_000,
    now: () => NOW,
  });
  const selector = {
    text: 'name=test-pod',
    requirements: [{ key: 'name', operator: '=' as const, values: ['test-pod'] }],
  };
  const call = calc.resourceReplicas(
    tc.currentReplicas,
    tc.targetUtilization,
    'cpu',
    'test-namespace',
    selector,
    tc.container ?? '',
  );
  if (tc.expectedError) {
    await expect(call).rejects.toThrow(tc.expectedError);
    return;
  }
  const out = await call;
  expect(out.replicas).toBe(tc.expectedReplicas);
  expect(out.utilization).toBe(tc.expectedUtilization);
  expect(out.rawUtilization).toBe(tc.expectedValue);
}

export const ones = (n: number) => Array.from({ length: n }, () => '1.0');
export const R = 'True' as const;
export const U = 'False' as const;

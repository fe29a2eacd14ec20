/**
 * A fake HpaClient and metrics for the reconcile tests (upstream horizontal_test.go's testCase
 * harness: one HPA `test-hpa` in `test-namespace` over the ReplicationController `test-rc`,
 * whose Scale has selector `name=test-pod`; pods `test-pod-<i>` with one container requesting
 * the case's cpu, PodMetrics at the case's levels). Records Scale writes, status writes and
 * Events.
 */
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { LegacyEvent } from '../events.js';
import { milliQuantity } from './compute-metrics.js';
import type { PodMetrics, ResourceMetricsClient } from './metrics/types.js';
import type { HpaClient, MetricSpec, ScaleView, ScalingRules } from './types.js';

/** A case of the reconcile harness (upstream testCase's fields that apply). */
export interface HpaCase {
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly specReplicas: number;
  readonly statusReplicas?: number;
  /** The cpu utilization target (percent); 0: none (metricsTarget only). */
  readonly CPUTarget?: number;
  readonly metricsTarget?: MetricSpec[];
  /** Per pod cpu usage (milli-cpu). */
  readonly reportedLevels?: readonly number[];
  readonly reportedCPURequests?: readonly string[];
  readonly reportedPodReadiness?: readonly ('True' | 'False')[];
  readonly reportedPodPhase?: readonly string[];
  readonly reportedPodDeletionTimestamp?: readonly boolean[];
  readonly selector?: string;
  readonly behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules };
  readonly scaleGetError?: string;
  readonly scaleUpdateError?: string;
  readonly metricsError?: string;
}

/** What a run of the fake recorded. */
export interface FakeRecord {
  scaled?: number;
  status?: Hpa['status'];
  events: LegacyEvent[];
}

export const TEST_NS = 'test-namespace';

/** The HPA of `tc` (defaults applied as the API server's strategy would). */
export function hpaOf(tc: HpaCase): Hpa {
  const metrics: MetricSpec[] = [...(tc.metricsTarget ?? [])];
  if (tc.CPUTarget)
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: tc.CPUTarget } },
    });
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'test-hpa', namespace: TEST_NS, uid: 'hpa-uid', resourceVersion: '1' },
    spec: {
      scaleTargetRef: { apiVersion: 'v1', kind: 'ReplicationController', name: 'test-rc' },
      minReplicas: tc.minReplicas,
      maxReplicas: tc.maxReplicas,
      metrics,
      ...(tc.behavior ? { behavior: tc.behavior } : {}),
    },
    status: { currentReplicas: tc.specReplicas, desiredReplicas: tc.specReplicas },
  } as Hpa;
}

function podsOf(tc: HpaCase): Pod[] {
  const count = Math.max(tc.specReplicas, tc.reportedPodPhase?.length ?? 0);
  return Array.from({ length: count }, (_, i) => {
    const request = tc.reportedCPURequests?.[i];
    return {
      metadata: {
        name: `test-pod-${i}`,
        namespace: TEST_NS,
        labels: { name: 'test-pod' },
        ...(tc.reportedPodDeletionTimestamp?.[i] ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      },
      spec: { containers: [{ name: 'container1', resources: request ? { requests: { cpu: request } } : {} }] },
      status: {
        phase: tc.reportedPodPhase?.[i] ?? 'Running',
        startTime: '0001-01-01T00:00:00Z',
        conditions: [{ type: 'Ready', status: tc.reportedPodReadiness?.[i] ?? 'True' }],
      },
    } as Pod;
  });
}

/** The fake metrics of `tc`. */
export function metricsOf(tc: HpaCase): ResourceMetricsClient {
  return {
    async podMetrics(): Promise<PodMetrics[]> {
      if (tc.metricsError) throw new Error(tc.metricsError);
      return (tc.reportedLevels ?? []).map((level, i) => ({
        metadata: { name: `test-pod-${i}`, namespace: TEST_NS },
        timestamp: new Date().toISOString(),
        window: '1m0s',
        containers: [{ name: 'container1', usage: { cpu: milliQuantity(level) } }],
      }));
    },
  };
}

/** The fake client of `tc`, recording into `record`. */
export function fakeHpaClient(tc: HpaCase, record: FakeRecord): HpaClient {
  const pods = podsOf(tc);
  return {
    getHpa: async () => hpaOf(tc),
    listHpas: async () => [hpaOf(tc)],
    listPods: async () => pods,
    async getScale(): Promise<ScaleView> {
      if (tc.scaleGetError) throw new Error(tc.scaleGetError);
      return {
        replicas: tc.specReplicas,
        statusReplicas: tc.statusReplicas ?? tc.specReplicas,
        selector: tc.selector ?? 'name=test-pod',
        resource: 'replicationcontrollers',
      };
    },
    async updateScale(_ns, _name, _scale, replicas) {
      if (tc.scaleUpdateError) throw new Error(tc.scaleUpdateError);
      record.scaled = replicas;
    },
    async writeStatus(hpa) {
      record.status = structuredClone(hpa.status);
    },
    record(_hpa, event) {
      record.events.push(event);
    },
  };
}

/**
 * The reconcile harness and table rows ported from upstream 1.33
 * pkg/controller/podautoscaler/horizontal_test.go (the cases that need no custom or external
 * metrics server), with upstream's statusOk conditions: `run` reconciles a row's HPA once over
 * the fake client and metrics (fake-client.fixture.ts) and answers what was written.
 */
import { fakeHpaClient, hpaOf, metricsOf, type FakeRecord, type HpaCase } from './fake-client.fixture.js';
import type { HpaMonitor } from './monitor.js';
import { reconcileAutoscaler } from './reconcile.js';
import { ReplicaCalculator } from './replica-calculator.js';
import { ScalingHistory } from './scaling-history.js';

export type Cond = [string, string, string];
export const OK: Cond[] = [
  ['AbleToScale', 'True', 'SucceededRescale'],
  ['ScalingActive', 'True', 'ValidMetricFound'],
  ['ScalingLimited', 'False', 'DesiredWithinRange'],
];
/** statusOkWithOverrides. */
export const okWith = (...overrides: Cond[]): Cond[] => OK.map((c) => overrides.find((o) => o[0] === c[0]) ?? c);
export const KEY = 'test-namespace/test-hpa';

export interface Row extends HpaCase {
  readonly name: string;
  readonly expectedDesiredReplicas: number;
  readonly expectedConditions?: Cond[];
  /** Past recommendations (upstream's tc.recommendations); undefined: the controller records the current size. */
  readonly recommendations?: number[];
  /** The status.currentMetrics utilization upstream's verifyCPUCurrent checks. */
  readonly verifyCPUCurrent?: boolean;
}

export async function run(tc: Row, monitor?: HpaMonitor) {
  const record: FakeRecord = { events: [] };
  const client = fakeHpaClient(tc, record);
  const history = new ScalingHistory();
  if (tc.recommendations)
    history.recommendations.set(
      KEY,
      tc.recommendations.map((r) => ({ recommendation: r, timestamp: Date.now() })),
    );
  const calc = new ReplicaCalculator({
    metrics: metricsOf(tc),
    listPods: (ns) => client.listPods(ns),
    tolerance: 0.1,
    cpuInitializationPeriodMs: 2 * 60_000,
    delayOfInitialReadinessStatusMs: 10_000,
  });
  const ctx = { client, calc, history, downscaleStabilizationMs: 5 * 60_000, selectors: new Map(), monitor };
  const error = await reconcileAutoscaler(ctx, hpaOf(tc), KEY).then(
    () => undefined,
    (err: Error) => err,
  );
  return { record, error };
}

export const ones = (n: number) => Array(n).fill('1.0');
export const rows: Row[] = [
  {
    name: 'TestScaleUp',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 3,
    expectedDesiredReplicas: 5,
    CPUTarget: 30,
    verifyCPUCurrent: true,
    reportedLevels: [300, 500, 700],
    reportedCPURequests: ones(3),
    expectedConditions: OK,
  },
  {
    name: 'TestScaleUpUnreadyLessScale',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 3,
    expectedDesiredReplicas: 4,
    CPUTarget: 30,
    reportedLevels: [300, 500, 700],
    reportedCPURequests: ones(3),
    reportedPodReadiness: ['False', 'True', 'True'],
  },
  {
    name: 'TestScaleUpIgnoresFailedPods',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 2,
    expectedDesiredReplicas: 4,
    CPUTarget: 30,
    reportedLevels: [500, 700],
    reportedCPURequests: ones(4),
    reportedPodReadiness: ['True', 'True', 'False', 'False'],
    reportedPodPhase: ['Running', 'Running', 'Failed', 'Failed'],
  },
  {
    name: 'TestScaleUpIgnoresDeletionPods',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 2,
    expectedDesiredReplicas: 4,
    CPUTarget: 30,
    reportedLevels: [500, 700],
    reportedCPURequests: ones(4),
    reportedPodReadiness: ['True', 'True', 'False', 'False'],
    reportedPodPhase: Array(4).fill('Running'),
    reportedPodDeletionTimestamp: [false, false, true, true],
  },
  {
    name: 'TestScaleDown',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 5,
    expectedDesiredReplicas: 3,
    CPUTarget: 50,
    verifyCPUCurrent: true,
    reportedLevels: [100, 300, 500, 250, 250],
    reportedCPURequests: ones(5),
    recommendations: [],
  },
  {
    name: 'TestScaleDownStabilizeInitialSize',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 5,
    expectedDesiredReplicas: 5,
    CPUTarget: 50,
    reportedLevels: [100, 300, 500, 250, 250],
    reportedCPURequests: ones(5),
    expectedConditions: [
      ['AbleToScale', 'True', 'ScaleDownStabilized'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ],
  },
  {
    name: 'TestScaleDownIgnoresUnreadyPods',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 5,
    expectedDesiredReplicas: 2,
    CPUTarget: 50,
    reportedLevels: [100, 300, 500, 250, 250],
    reportedCPURequests: ones(5),
    reportedPodReadiness: ['True', 'True', 'True', 'False', 'False'],
    recommendations: [],
  },
  {
    name: 'TestTolerance',
    minReplicas: 1,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    CPUTarget: 100,
    reportedLevels: [1010, 1030, 1020],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    expectedConditions: okWith(['AbleToScale', 'True', 'ReadyForNewScale']),
  },
  {
    name: 'TestMinReplicas',
    minReplicas: 2,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 2,
    CPUTarget: 90,
    reportedLevels: [10, 95, 10],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    recommendations: [],
    expectedConditions: okWith(['ScalingLimited', 'True', 'TooFewReplicas']),
  },
  {
    name: 'TestZeroMinReplicasDesiredZero',
    minReplicas: 0,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 0,
    CPUTarget: 90,
    reportedLevels: [0, 0, 0],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    recommendations: [],
    expectedConditions: okWith(['ScalingLimited', 'False', 'DesiredWithinRange']),
  },
  {
    name: 'TestMinReplicasDesiredZero',
    minReplicas: 2,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 2,
    CPUTarget: 90,
    reportedLevels: [0, 0, 0],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    recommendations: [],
    expectedConditions: okWith(['ScalingLimited', 'True', 'TooFewReplicas']),
  },
  {
    name: 'TestZeroReplicas',
    minReplicas: 3,
    maxReplicas: 5,
    specReplicas: 0,
    expectedDesiredReplicas: 0,
    CPUTarget: 90,
    reportedLevels: [],
    reportedCPURequests: [],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'ScalingDisabled'],
    ],
  },
  {
    name: 'TestTooFewReplicas',
    minReplicas: 3,
    maxReplicas: 5,
    specReplicas: 2,
    expectedDesiredReplicas: 3,
    CPUTarget: 90,
    reportedLevels: [],
    reportedCPURequests: [],
    expectedConditions: [['AbleToScale', 'True', 'SucceededRescale']],
  },
  {
    name: 'TestTooManyReplicas',
    minReplicas: 3,
    maxReplicas: 5,
    specReplicas: 10,
    expectedDesiredReplicas: 5,
    CPUTarget: 90,
    reportedLevels: [],
    reportedCPURequests: [],
    expectedConditions: [['AbleToScale', 'True', 'SucceededRescale']],
  },
  {
    name: 'TestScaleUpRCImmediately',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 1,
    expectedDesiredReplicas: 2,
    reportedLevels: [],
    reportedCPURequests: [],
    expectedConditions: [['AbleToScale', 'True', 'SucceededRescale']],
  },
  {
    name: 'TestScaleDownRCImmediately',
    minReplicas: 2,
    maxReplicas: 5,
    specReplicas: 6,
    expectedDesiredReplicas: 5,
    CPUTarget: 50,
    reportedLevels: [8000, 9500, 1000],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    expectedConditions: [['AbleToScale', 'True', 'SucceededRescale']],
  },
  {
    name: 'TestMaxReplicas',
    minReplicas: 2,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 5,
    CPUTarget: 90,
    reportedLevels: [8000, 9500, 1000],
    reportedCPURequests: ['0.9', '1.0', '1.1'],
    expectedConditions: okWith(['ScalingLimited', 'True', 'TooManyReplicas']),
  },
  {
    name: 'TestSuperfluousMetrics',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 4,
    expectedDesiredReplicas: 6,
    CPUTarget: 100,
    reportedLevels: [4000, 9500, 3000, 7000, 3200, 2000],
    reportedCPURequests: ones(4),
    expectedConditions: okWith(['ScalingLimited', 'True', 'TooManyReplicas']),
  },
  {
    name: 'TestMissingMetrics',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 4,
    expectedDesiredReplicas: 3,
    CPUTarget: 100,
    reportedLevels: [400, 95],
    reportedCPURequests: ones(4),
    recommendations: [],
  },
  {
    name: 'TestEmptyMetrics',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 4,
    expectedDesiredReplicas: 4,
    CPUTarget: 100,
    reportedLevels: [],
    reportedCPURequests: ones(4),
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetResourceMetric'],
    ],
  },
  {
    name: 'TestEmptyCPURequest',
    minReplicas: 1,
    maxReplicas: 5,
    specReplicas: 1,
    expectedDesiredReplicas: 1,
    CPUTarget: 100,
    reportedLevels: [200],
    reportedCPURequests: [],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetResourceMetric'],
    ],
  },
  {
    name: 'TestUpscaleCap',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 6,
    CPUTarget: 10,
    reportedLevels: [100, 200, 300],
    reportedCPURequests: ['0.1', '0.1', '0.1'],
    expectedConditions: okWith(['ScalingLimited', 'True', 'ScaleUpLimit']),
  },
  {
    name: 'TestConditionInvalidSelectorMissing',
    minReplicas: 1,
    maxReplicas: 5,
    specReplicas: 1,
    expectedDesiredReplicas: 1,
    CPUTarget: 80,
    reportedLevels: [10],
    reportedCPURequests: ['1.0'],
    selector: '',
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'InvalidSelector'],
    ],
  },
  {
    name: 'TestConditionInvalidSelectorUnparsable',
    minReplicas: 1,
    maxReplicas: 5,
    specReplicas: 1,
    expectedDesiredReplicas: 1,
    CPUTarget: 80,
    reportedLevels: [10],
    reportedCPURequests: ['1.0'],
    selector: 'cheddar cheese',
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'InvalidSelector'],
    ],
  },
  {
    name: 'TestConditionFailedGetMetrics (Resource)',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    CPUTarget: 10,
    reportedLevels: [100, 200, 300],
    reportedCPURequests: ['0.1', '0.1', '0.1'],
    metricsError: 'something went wrong',
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetResourceMetric'],
    ],
  },
  {
    name: 'TestConditionFailedGetMetrics (Pods)',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    metricsTarget: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    ],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetPodsMetric'],
    ],
  },
  {
    name: 'TestConditionFailedGetMetrics (Object)',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    metricsTarget: [
      {
        type: 'Object',
        object: {
          describedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'some-deployment' },
          metric: { name: 'qps' },
          target: { type: 'Value', value: '10' },
        },
      },
    ],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetObjectMetric'],
    ],
  },
  {
    name: 'TestConditionFailedGetMetrics (External)',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    metricsTarget: [
      { type: 'External', external: { metric: { name: 'qps', selector: {} }, target: { type: 'Value', value: '10' } } },
    ],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetExternalMetric'],
    ],
  },
  {
    name: 'TestConditionInvalidSourceType',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    metricsTarget: [{ type: 'CheddarCheese' }],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'InvalidMetricSourceType'],
    ],
  },
  {
    name: 'TestConditionFailedGetScale',
    minReplicas: 1,
    maxReplicas: 100,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    CPUTarget: 10,
    reportedLevels: [100, 200, 300],
    reportedCPURequests: ['0.1', '0.1', '0.1'],
    scaleGetError: 'something went wrong',
    expectedConditions: [['AbleToScale', 'False', 'FailedGetScale']],
  },
  {
    name: 'TestConditionFailedUpdateScale',
    minReplicas: 1,
    maxReplicas: 5,
    specReplicas: 3,
    expectedDesiredReplicas: 3,
    CPUTarget: 100,
    reportedLevels: [150, 150, 150],
    reportedCPURequests: ['0.1', '0.1', '0.1'],
    scaleUpdateError: 'something went wrong',
    expectedConditions: okWith(['AbleToScale', 'False', 'FailedUpdateScale']),
  },
  {
    name: 'TestScaleUpOneMetricInvalid',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 3,
    expectedDesiredReplicas: 4,
    CPUTarget: 30,
    metricsTarget: [{ type: 'CheddarCheese' }],
    reportedLevels: [300, 400, 500],
    reportedCPURequests: ones(3),
    expectedConditions: OK,
  },
  {
    name: 'TestNoScaleDownOneMetricInvalid',
    minReplicas: 2,
    maxReplicas: 6,
    specReplicas: 5,
    expectedDesiredReplicas: 5,
    CPUTarget: 50,
    metricsTarget: [{ type: 'CheddarCheese' }],
    reportedLevels: [100, 300, 500, 250, 250],
    reportedCPURequests: ones(5),
    recommendations: [],
    expectedConditions: [
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'InvalidMetricSourceType'],
    ],
  },
];

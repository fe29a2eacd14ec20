/**
 * What reconcileAutoscaler tells a user besides the replicas: its Events and their messages,
 * the errors it returns, a behavior's policy limit, and the monitor's action and error labels
 * (upstream 1.33 horizontal_test.go expectedReported* of the same rows).
 */
import { describe, expect, it } from 'vitest';
import { fakeHpaClient, hpaOf, metricsOf, type FakeRecord } from './fake-client.fixture.js';
import type { HpaMonitor } from './monitor.js';
import { reconcileAutoscaler } from './reconcile.js';
import { KEY, ones, rows, run, type Row } from './reconcile-rows.fixture.js';
import { ReplicaCalculator } from './replica-calculator.js';
import { ScalingHistory } from './scaling-history.js';

describe('reconcileAutoscaler events and messages', () => {
  it('records SuccessfulRescale with the metric above target and sets lastScaleTime', async () => {
    const { record, error } = await run(rows[0]!);
    expect(error).toBeUndefined();
    expect(record.events).toContainEqual({
      type: 'Normal',
      reason: 'SuccessfulRescale',
      message: 'New size: 5; reason: cpu resource utilization (percentage of request) above target',
    });
    expect(record.status?.lastScaleTime).toBeTruthy();
    expect(record.status?.currentReplicas).toBe(3);
  });

  it('clamps to minReplicas without metrics, with upstream reason in the event', async () => {
    const tc = rows.find((r) => r.name === 'TestTooFewReplicas')!;
    const { record } = await run(tc);
    expect(record.events.map((e) => e.message)).toEqual([
      'New size: 3; reason: Current number of replicas below Spec.MinReplicas',
    ]);
    const many = await run(rows.find((r) => r.name === 'TestTooManyReplicas')!);
    expect(many.record.events.map((e) => e.message)).toEqual([
      'New size: 5; reason: Current number of replicas above Spec.MaxReplicas',
    ]);
  });

  it('reports a missing request as upstream does, in the condition, events and error', async () => {
    const tc = rows.find((r) => r.name === 'TestEmptyCPURequest')!;
    const { record, error } = await run(tc);
    const cause = 'failed to get cpu utilization: missing request for cpu in container container1 of Pod test-pod-0';
    expect(record.status?.conditions?.[1]?.message).toBe(`the HPA was unable to compute the replica count: ${cause}`);
    expect(record.events).toContainEqual({ type: 'Warning', reason: 'FailedGetResourceMetric', message: cause });
    const computed = `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${cause}`;
    expect(record.events).toContainEqual({
      type: 'Warning',
      reason: 'FailedComputeMetricsReplicas',
      message: computed,
    });
    expect(error?.message).toBe(
      `failed to compute desired number of replicas based on listed metrics for ReplicationController/test-namespace/test-rc: ${computed}`,
    );
  });

  it('scales with a behavior within its policy and stores the scale event', async () => {
    const tc: Row = {
      name: 'behavior',
      minReplicas: 1,
      maxReplicas: 20,
      specReplicas: 2,
      expectedDesiredReplicas: 3,
      CPUTarget: 10,
      reportedLevels: [500, 500],
      reportedCPURequests: ones(2),
      behavior: {
        scaleUp: {
          stabilizationWindowSeconds: 0,
          selectPolicy: 'Max',
          policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }],
        },
        scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    };
    const { record } = await run(tc);
    expect(record.scaled).toBe(3);
    expect(record.status?.conditions?.find((c) => c.type === 'ScalingLimited')).toMatchObject({
      status: 'True',
      reason: 'ScaleUpLimit',
    });
  });
});

/** A monitor keeping what was reported: `action/error` of reconciliations, `type:action/error` of metrics. */
function recording() {
  const seen = { reconciliations: [] as string[], metrics: [] as string[] };
  const monitor: HpaMonitor = {
    observeReconciliationResult: (action, error) => void seen.reconciliations.push(`${action}/${error}`),
    observeMetricComputationResult: (action, error, _s, type) => void seen.metrics.push(`${type}:${action}/${error}`),
  };
  return { seen, monitor };
}

describe('reconcileAutoscaler monitor labels (upstream expectedReported* of the same rows)', () => {
  const byName = (name: string) => rows.find((r) => r.name === name)!;
  const cases: [string, string[], string[]][] = [
    ['TestScaleUp', ['scale_up/none'], ['Resource:scale_up/none']],
    ['TestScaleDown', ['scale_down/none'], ['Resource:scale_down/none']],
    ['TestTolerance', ['none/none'], ['Resource:none/none']],
    ['TestScaleUpOneMetricInvalid', ['scale_up/internal'], ['CheddarCheese:none/spec', 'Resource:scale_up/none']],
    ['TestNoScaleDownOneMetricInvalid', ['none/internal'], ['CheddarCheese:none/spec', 'Resource:scale_down/none']],
    ['TestEmptyMetrics', ['none/internal'], ['Resource:none/internal']],
  ];
  for (const [name, reconciliations, metrics] of cases)
    it(name, async () => {
      const { seen, monitor } = recording();
      await run(byName(name), monitor);
      expect(seen.reconciliations).toEqual(reconciliations);
      expect(seen.metrics.sort()).toEqual(metrics);
    });

  it('an invalid scaleTargetRef apiVersion is a spec error with FailedGetScale', async () => {
    const { seen, monitor } = recording();
    const tc = byName('TestScaleUp');
    const record: FakeRecord = { events: [] };
    const client = fakeHpaClient(tc, record);
    const hpa = hpaOf(tc);
    hpa.spec!.scaleTargetRef = { apiVersion: 'a/b/c', kind: 'ReplicationController', name: 'test-rc' };
    const calc = new ReplicaCalculator({
      metrics: metricsOf(tc),
      listPods: async () => [],
      tolerance: 0.1,
      cpuInitializationPeriodMs: 0,
      delayOfInitialReadinessStatusMs: 0,
    });
    const ctx = {
      client,
      calc,
      history: new ScalingHistory(),
      downscaleStabilizationMs: 0,
      selectors: new Map(),
      monitor,
    };
    await expect(reconcileAutoscaler(ctx, hpa, KEY)).rejects.toThrow(
      'invalid API version in scale target reference: unexpected GroupVersion string: a/b/c',
    );
    expect(seen.reconciliations).toEqual(['none/spec']);
    expect(record.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['AbleToScale', 'False', 'FailedGetScale'],
    ]);
    expect(record.events).toEqual([
      { type: 'Warning', reason: 'FailedGetScale', message: 'unexpected GroupVersion string: a/b/c' },
    ]);
  });
});

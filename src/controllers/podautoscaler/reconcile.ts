/**
 * reconcileAutoscaler (upstream 1.33 pkg/controller/podautoscaler/horizontal.go): one sync of an
 * HPA. Reads the target's Scale (AbleToScale False `FailedGetScale` when it cannot); a target
 * at 0 replicas with minReplicas above 0 is left alone (ScalingActive False `ScalingDisabled`);
 * above maxReplicas or below minReplicas it is brought within them without metrics; otherwise
 * the metrics' proposal, normalized (normalize.ts), is written to the Scale. Events
 * SuccessfulRescale / FailedRescale / FailedGetScale / FailedComputeMetricsReplicas; the status
 * (currentReplicas, desiredReplicas, currentMetrics, lastScaleTime, conditions) is written
 * through `/status` when it changed. Throws the error upstream returns (the key is retried).
 */
import { matchesLabels, parseLabelSelector } from '../../api/label-selector.js';
import { rfc3339 } from '../../api/object.js';
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import { semanticEqual } from '../../resources/jobs/go-values.js';
import { computeReplicasForMetrics, type MetricsResult } from './compute-metrics.js';
import { setCondition } from './conditions.js';
import { normalizeDesiredReplicas, normalizeDesiredReplicasWithBehaviors } from './normalize.js';
import { actionLabelOf, errorLabelOf, NO_MONITOR, SpecError, type ActionLabel, type HpaMonitor } from './monitor.js';
import { groupOfApiVersion } from './registry-client.js';
import type { PodSelector, ReplicaCalculator } from './replica-calculator.js';
import type { ScalingHistory } from './scaling-history.js';
import type { HpaClient, MetricStatus, ScaleView } from './types.js';

/** What a sync needs besides the HPA. */
export interface ReconcileContext {
  readonly client: HpaClient;
  readonly calc: ReplicaCalculator;
  readonly history: ScalingHistory;
  readonly downscaleStabilizationMs: number;
  /** Selectors of the HPAs seen, by key, for the multiple-HPAs check (upstream hpaSelectors). */
  readonly selectors: Map<string, PodSelector>;
  readonly now?: () => number;
  /** Where reconciliations and metric computations are reported (default: nowhere). */
  readonly monitor?: HpaMonitor;
}

const deepCopy = <T>(v: T): T => structuredClone(v);

/** setStatus: the status recreated with the counts and metrics; lastScaleTime now when rescaled. */
function setStatus(
  hpa: Hpa,
  current: number,
  desired: number,
  metrics: MetricStatus[] | undefined,
  rescale: boolean,
  now: number,
) {
  const before = hpa.status ?? {};
  hpa.status = {
    currentReplicas: current,
    desiredReplicas: desired,
    ...(rescale
      ? { lastScaleTime: rfc3339(new Date(now)) }
      : before.lastScaleTime
        ? { lastScaleTime: before.lastScaleTime }
        : {}),
    ...(metrics ? { currentMetrics: metrics } : {}),
    ...(before.conditions ? { conditions: before.conditions } : {}),
  };
  if (before.observedGeneration != null) hpa.status.observedGeneration = before.observedGeneration;
}

/** validateAndParseSelector; sets ScalingActive False and throws when the selector is unusable. */
async function validateSelector(ctx: ReconcileContext, hpa: Hpa, key: string, text: string): Promise<PodSelector> {
  const fail = (reason: string, event: string, message: string): never => {
    ctx.client.record(hpa, { type: 'Warning', reason: event, message });
    setCondition(hpa, {
      type: 'ScalingActive',
      status: 'False',
      reason,
      message:
        reason === 'InvalidSelector' && event === 'SelectorRequired'
          ? "the HPA target's scale is missing a selector"
          : message,
    });
    throw new Error(message);
  };
  if (!text) return fail('InvalidSelector', 'SelectorRequired', 'selector is required');
  let selector: PodSelector;
  try {
    selector = { text, requirements: parseLabelSelector(text) };
  } catch (err) {
    return fail(
      'InvalidSelector',
      'InvalidSelector',
      `couldn't convert selector into a corresponding internal selector object: ${(err as Error).message}`,
    );
  }
  ctx.selectors.set(key, selector);
  const ns = hpa.metadata.namespace ?? '';
  const pods = (await ctx.client.listPods(ns)).filter((p) => matchesLabels(selector.requirements, p.metadata.labels));
  const controlling = [...ctx.selectors]
    .filter(([k, s]) => k.startsWith(`${ns}/`) && pods.some((p) => matchesLabels(s.requirements, p.metadata.labels)))
    .map(([k]) => k);
  if (controlling.length > 1)
    return fail(
      'AmbiguousSelector',
      'AmbiguousSelector',
      `pods by selector ${text} are controlled by multiple HPAs: [${controlling.join(' ')}]`,
    );
  return selector;
}

/** Write the status when it changed (updateStatusIfNeeded); a failure is recorded (FailedUpdateStatus) and thrown. */
async function updateStatusIfNeeded(ctx: ReconcileContext, original: Hpa['status'], hpa: Hpa): Promise<void> {
  if (semanticEqual(original ?? {}, hpa.status ?? {})) return;
  try {
    await ctx.client.writeStatus(hpa);
  } catch (err) {
    ctx.client.record(hpa, { type: 'Warning', reason: 'FailedUpdateStatus', message: (err as Error).message });
    throw new Error(`failed to update status for ${hpa.metadata.name}: ${(err as Error).message}`, { cause: err });
  }
}

/** Best-effort status write on an error path (upstream logs its failure). */
const tryUpdateStatus = (ctx: ReconcileContext, original: Hpa['status'], hpa: Hpa) =>
  updateStatusIfNeeded(ctx, original, hpa).catch(() => undefined);

/**
 * reconcileAutoscaler of `shared` (not mutated), whose queue key is `key` (`namespace/name`);
 * the outcome is reported to the monitor (action and error labels, duration).
 */
export async function reconcileAutoscaler(ctx: ReconcileContext, shared: Hpa, key: string): Promise<void> {
  const start = performance.now();
  const monitor = ctx.monitor ?? NO_MONITOR;
  const seconds = () => (performance.now() - start) / 1000;
  let action: ActionLabel;
  try {
    action = await reconcile(ctx, shared, key);
  } catch (err) {
    monitor.observeReconciliationResult(
      (err as { action?: ActionLabel }).action ?? 'none',
      errorLabelOf(err),
      seconds(),
    );
    throw err;
  }
  monitor.observeReconciliationResult(action, 'none', seconds());
}

/** One sync; answers the action taken (throws, with the action on the error when one was taken). */
async function reconcile(ctx: ReconcileContext, shared: Hpa, key: string): Promise<ActionLabel> {
  const now = (ctx.now ?? Date.now)();
  const hpa = deepCopy(shared);
  const original = deepCopy(shared.status);
  const spec = hpa.spec ?? {};
  const ref = spec.scaleTargetRef ?? {};
  const ns = hpa.metadata.namespace ?? '';
  const reference = `${ref.kind}/${ns}/${ref.name}`;

  const failedGetScale = async (message: string) => {
    ctx.client.record(hpa, { type: 'Warning', reason: 'FailedGetScale', message });
    setCondition(hpa, {
      type: 'AbleToScale',
      status: 'False',
      reason: 'FailedGetScale',
      message: `the HPA controller was unable to get the target's current scale: ${message}`,
    });
    await tryUpdateStatus(ctx, original, hpa);
  };
  try {
    groupOfApiVersion(ref.apiVersion ?? '');
  } catch (err) {
    await failedGetScale((err as Error).message);
    throw new SpecError(`invalid API version in scale target reference: ${(err as Error).message}`, { cause: err });
  }
  let scale: ScaleView;
  try {
    scale = await ctx.client.getScale(ref.apiVersion ?? '', ref.kind ?? '', ns, ref.name ?? '');
  } catch (err) {
    await failedGetScale((err as Error).message);
    throw new Error(`failed to query scale subresource for ${reference}: ${(err as Error).message}`, { cause: err });
  }
  setCondition(hpa, {
    type: 'AbleToScale',
    status: 'True',
    reason: 'SucceededGetScale',
    message: "the HPA controller was able to get the target's current scale",
  });
  const current = scale.replicas;
  ctx.history.recordInitial(key, current, now);

  const minReplicas = spec.minReplicas ?? 1;
  const maxReplicas = spec.maxReplicas ?? 0;
  let desired = 0;
  let reason = '';
  let rescale = true;
  let metrics: MetricsResult | undefined;
  let retError: Error | undefined;

  if (current === 0 && minReplicas !== 0) {
    rescale = false;
    setCondition(hpa, {
      type: 'ScalingActive',
      status: 'False',
      reason: 'ScalingDisabled',
      message: 'scaling is disabled since the replica count of the target is zero',
    });
  } else if (current > maxReplicas) {
    reason = 'Current number of replicas above Spec.MaxReplicas';
    desired = maxReplicas;
  } else if (current < minReplicas) {
    reason = 'Current number of replicas below Spec.MinReplicas';
    desired = minReplicas;
  } else {
    try {
      const selector = await validateSelector(ctx, hpa, key, scale.selector);
      const record = (event: { type: 'Normal' | 'Warning'; reason: string; message: string }) =>
        ctx.client.record(hpa, event);
      metrics = await computeReplicasForMetrics(
        {
          hpa,
          calc: ctx.calc,
          selector,
          specReplicas: current,
          statusReplicas: scale.statusReplicas,
          record,
          monitor: ctx.monitor,
        },
        spec.metrics ?? [],
      );
    } catch (err) {
      metrics = { replicas: -1, metric: '', statuses: [], timestamp: 0, error: err as Error };
    }
    if (metrics.error && metrics.replicas === -1) {
      setStatus(
        hpa,
        current,
        hpa.status?.desiredReplicas ?? 0,
        metrics.statuses.length ? metrics.statuses : undefined,
        false,
        now,
      );
      await tryUpdateStatus(ctx, original, hpa);
      ctx.client.record(hpa, {
        type: 'Warning',
        reason: 'FailedComputeMetricsReplicas',
        message: metrics.error.message,
      });
      throw new Error(
        `failed to compute desired number of replicas based on listed metrics for ${reference}: ${metrics.error.message}`,
      );
    }
    retError = metrics.error;
    let rescaleMetric = '';
    if (metrics.replicas > desired) {
      desired = metrics.replicas;
      rescaleMetric = metrics.metric;
    }
    if (desired > current) reason = `${rescaleMetric} above target`;
    if (desired < current) reason = 'All metrics below target';
    const normalize = spec.behavior ? normalizeDesiredReplicasWithBehaviors : normalizeDesiredReplicas;
    desired = normalize(hpa, key, current, desired, minReplicas, ctx.downscaleStabilizationMs, ctx.history, now);
    rescale = desired !== current;
  }

  const statuses = metrics?.statuses.length ? metrics.statuses : undefined;
  if (rescale) {
    try {
      await ctx.client.updateScale(ns, ref.name ?? '', scale, desired);
    } catch (err) {
      const message = (err as Error).message;
      ctx.client.record(hpa, {
        type: 'Warning',
        reason: 'FailedRescale',
        message: `New size: ${desired}; reason: ${reason}; error: ${message}`,
      });
      setCondition(hpa, {
        type: 'AbleToScale',
        status: 'False',
        reason: 'FailedUpdateScale',
        message: `the HPA controller was unable to update the target scale: ${message}`,
      });
      setStatus(hpa, current, hpa.status?.desiredReplicas ?? 0, statuses, false, now);
      await tryUpdateStatus(ctx, original, hpa);
      throw new Error(`failed to rescale ${reference}: ${message}`, { cause: err });
    }
    setCondition(hpa, {
      type: 'AbleToScale',
      status: 'True',
      reason: 'SucceededRescale',
      message: `the HPA controller was able to update the target scale to ${desired}`,
    });
    ctx.client.record(hpa, {
      type: 'Normal',
      reason: 'SuccessfulRescale',
      message: `New size: ${desired}; reason: ${reason}`,
    });
    ctx.history.storeScaleEvent(spec.behavior, key, current, desired, now);
  } else desired = current;

  const action = rescale ? actionLabelOf(current, desired) : 'none';
  setStatus(hpa, current, desired, statuses, rescale, now);
  try {
    await updateStatusIfNeeded(ctx, original, hpa);
  } catch (err) {
    throw Object.assign(err as Error, { action });
  }
  if (retError) throw Object.assign(retError, { action });
  return action;
}

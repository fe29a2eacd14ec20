/**
 * normalizeDesiredReplicas and normalizeDesiredReplicasWithBehaviors (upstream 1.33
 * horizontal.go): the metrics' proposal made the replicas to set. Without `spec.behavior`: the
 * highest recommendation of the downscale stabilization window, then within minReplicas and
 * the smaller of maxReplicas and max(2 × current, 4). With it: the recommendation kept between
 * the lowest of the scale-up window and the highest of the scale-down window, then the
 * policies' rate (Pods / Percent per period, selectPolicy Max / Min / Disabled) and the limits.
 * Both set AbleToScale and ScalingLimited with upstream's reasons and messages.
 */
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import { setCondition } from './conditions.js';
import { replicasChangePerPeriod, type ScalingHistory, type TimestampedScaleEvent } from './scaling-history.js';
import type { ScalingRules } from './types.js';

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

/** A limit and why it applies. */
interface Limited {
  readonly replicas: number;
  readonly reason: string;
  readonly message: string;
}

const WITHIN: Omit<Limited, 'replicas'> = {
  reason: 'DesiredWithinRange',
  message: 'the desired count is within the acceptable range',
};
const SCALE_UP_LIMIT = {
  reason: 'ScaleUpLimit',
  message: 'the desired replica count is increasing faster than the maximum scale rate',
};
const TOO_MANY = {
  reason: 'TooManyReplicas',
  message: 'the desired replica count is more than the maximum replica count',
};
const TOO_FEW = {
  reason: 'TooFewReplicas',
  message: 'the desired replica count is less than the minimum replica count',
};
const SCALE_DOWN_LIMIT = {
  reason: 'ScaleDownLimit',
  message: 'the desired replica count is decreasing faster than the maximum scale rate',
};

/** calculateScaleUpLimit: max(2 × current, 4). */
export const scaleUpLimit = (current: number): number => Math.max(2 * current, 4);

/** convertDesiredReplicasWithRules: `desired` within minReplicas and min(maxReplicas, scale-up limit). */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): Limited {
  const limit = scaleUpLimit(current);
  const [maximum, why] = max > limit ? [limit, SCALE_UP_LIMIT] : [max, TOO_MANY];
  if (desired < min) return { replicas: min, ...TOO_FEW };
  if (desired > maximum) return { replicas: maximum, ...why };
  return { replicas: desired, ...WITHIN };
}

/** The arguments of the behavior path (upstream NormalizationArg). */
export interface NormalizationArg {
  readonly key: string;
  readonly scaleUp: ScalingRules;
  readonly scaleDown: ScalingRules;
  readonly minReplicas: number;
  readonly maxReplicas: number;
  readonly currentReplicas: number;
  readonly desiredReplicas: number;
}

/** Policies' start-of-period replicas and proposals; `pick` folds them (upstream selectPolicyFn). */
function policyLimit(
  current: number,
  up: readonly TimestampedScaleEvent[],
  down: readonly TimestampedScaleEvent[],
  rules: ScalingRules,
  direction: 'up' | 'down',
  now: number,
): number {
  const select = rules.selectPolicy ?? 'Max';
  if (select === 'Disabled') return current;
  // Up: Max picks the largest proposal; down: Max picks the smallest (the largest change).
  const largest = (select === 'Min') === (direction === 'down');
  let result = largest ? INT32_MIN : INT32_MAX;
  for (const p of rules.policies ?? []) {
    const period = p.periodSeconds ?? 0;
    const start = current - replicasChangePerPeriod(period, up, now) + replicasChangePerPeriod(period, down, now);
    const value = p.value ?? 0;
    let proposed: number;
    if (p.type === 'Pods') proposed = direction === 'up' ? start + value : start - value;
    else proposed = direction === 'up' ? Math.ceil(start * (1 + value / 100)) : Math.trunc(start * (1 - value / 100));
    result = largest ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** calculateScaleUpLimitWithScalingRules. */
export const scaleUpLimitWithRules = (
  current: number,
  up: readonly TimestampedScaleEvent[],
  down: readonly TimestampedScaleEvent[],
  rules: ScalingRules,
  now: number,
) => policyLimit(current, up, down, rules, 'up', now);

/** calculateScaleDownLimitWithBehaviors. */
export const scaleDownLimitWithRules = (
  current: number,
  up: readonly TimestampedScaleEvent[],
  down: readonly TimestampedScaleEvent[],
  rules: ScalingRules,
  now: number,
) => policyLimit(current, up, down, rules, 'down', now);

/** convertDesiredReplicasWithBehaviorRate: the policies' rate and the min/max limits. */
export function convertWithBehaviorRate(args: NormalizationArg, history: ScalingHistory, now: number): Limited {
  const up = history.scaleUpEvents.get(args.key) ?? [];
  const down = history.scaleDownEvents.get(args.key) ?? [];
  if (args.desiredReplicas > args.currentReplicas) {
    const limit = Math.max(
      scaleUpLimitWithRules(args.currentReplicas, up, down, args.scaleUp, now),
      args.currentReplicas,
    );
    const [maximum, why] = args.maxReplicas > limit ? [limit, SCALE_UP_LIMIT] : [args.maxReplicas, TOO_MANY];
    if (args.desiredReplicas > maximum) return { replicas: maximum, ...why };
  } else if (args.desiredReplicas < args.currentReplicas) {
    const limit = Math.min(
      scaleDownLimitWithRules(args.currentReplicas, up, down, args.scaleDown, now),
      args.currentReplicas,
    );
    const [minimum, why] = args.minReplicas < limit ? [limit, SCALE_DOWN_LIMIT] : [args.minReplicas, TOO_FEW];
    if (args.desiredReplicas < minimum) return { replicas: minimum, ...why };
  }
  return { replicas: args.desiredReplicas, ...WITHIN };
}

/** stabilizeRecommendationWithBehaviors: the recommendation within the windows' bounds; records the new one. */
export function stabilizeWithBehaviors(args: NormalizationArg, history: ScalingHistory, now: number): Limited {
  const upCutoff = now - (args.scaleUp.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (args.scaleDown.stabilizationWindowSeconds ?? 0) * 1000;
  let upRecommendation = args.desiredReplicas;
  let downRecommendation = args.desiredReplicas;
  let reuse: number | undefined;
  (history.recommendations.get(args.key) ?? []).forEach((rec, i) => {
    if (rec.timestamp > upCutoff) upRecommendation = Math.min(rec.recommendation, upRecommendation);
    if (rec.timestamp > downCutoff) downRecommendation = Math.max(rec.recommendation, downRecommendation);
    if (rec.timestamp < upCutoff && rec.timestamp < downCutoff) reuse = i;
  });
  let recommendation = args.currentReplicas;
  if (recommendation < upRecommendation) recommendation = upRecommendation;
  if (recommendation > downRecommendation) recommendation = downRecommendation;
  history.recordRecommendation(args.key, args.desiredReplicas, now, reuse);
  return args.desiredReplicas >= args.currentReplicas
    ? {
        replicas: recommendation,
        reason: 'ScaleUpStabilized',
        message: 'recent recommendations were lower than current one, applying the lowest recent recommendation',
      }
    : {
        replicas: recommendation,
        reason: 'ScaleDownStabilized',
        message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
      };
}

/** stabilizeRecommendation (no behavior): the highest recommendation within `windowMs`; records the new one. */
export function stabilizeRecommendation(
  key: string,
  desired: number,
  windowMs: number,
  history: ScalingHistory,
  now: number,
): number {
  let max = desired;
  let reuse: number | undefined;
  const cutoff = now - windowMs;
  (history.recommendations.get(key) ?? []).forEach((rec, i) => {
    if (rec.timestamp < cutoff) reuse = i;
    else if (rec.recommendation > max) max = rec.recommendation;
  });
  history.recordRecommendation(key, desired, now, reuse);
  return max;
}

const READY = { reason: 'ReadyForNewScale', message: 'recommended size matches current size' };

/** Set ScalingLimited from `limited` against `stabilized`. */
function setLimited(hpa: Hpa, limited: Limited, stabilized: number, now: Date): void {
  const status = limited.replicas === stabilized ? 'False' : 'True';
  setCondition(hpa, { type: 'ScalingLimited', status, reason: limited.reason, message: limited.message }, now);
}

/** normalizeDesiredReplicas (no behavior): sets AbleToScale and ScalingLimited; answers the replicas. */
export function normalizeDesiredReplicas(
  hpa: Hpa,
  key: string,
  current: number,
  desired: number,
  min: number,
  downscaleStabilizationMs: number,
  history: ScalingHistory,
  now: number,
): number {
  const at = new Date(now);
  const stabilized = stabilizeRecommendation(key, desired, downscaleStabilizationMs, history, now);
  const able =
    stabilized !== desired
      ? {
          reason: 'ScaleDownStabilized',
          message: 'recent recommendations were higher than current one, applying the highest recent recommendation',
        }
      : READY;
  setCondition(hpa, { type: 'AbleToScale', status: 'True', ...able }, at);
  const limited = convertDesiredReplicasWithRules(current, stabilized, min, hpa.spec?.maxReplicas ?? 0);
  setLimited(hpa, limited, stabilized, at);
  return limited.replicas;
}

/** normalizeDesiredReplicasWithBehaviors: sets AbleToScale and ScalingLimited; answers the replicas. */
export function normalizeDesiredReplicasWithBehaviors(
  hpa: Hpa,
  key: string,
  current: number,
  desired: number,
  min: number,
  downscaleStabilizationMs: number,
  history: ScalingHistory,
  now: number,
): number {
  const at = new Date(now);
  const behavior = hpa.spec?.behavior ?? {};
  const scaleDown = { ...(behavior.scaleDown ?? {}) };
  // maybeInitScaleDownStabilizationWindow: the controller's window when the HPA sets none.
  scaleDown.stabilizationWindowSeconds ??= Math.trunc(downscaleStabilizationMs / 1000);
  const args: NormalizationArg = {
    key,
    scaleUp: behavior.scaleUp ?? {},
    scaleDown,
    minReplicas: min,
    maxReplicas: hpa.spec?.maxReplicas ?? 0,
    currentReplicas: current,
    desiredReplicas: desired,
  };
  const stabilized = stabilizeWithBehaviors(args, history, now);
  const able = stabilized.replicas !== desired ? stabilized : READY;
  setCondition(hpa, { type: 'AbleToScale', status: 'True', reason: able.reason, message: able.message }, at);
  const limited = convertWithBehaviorRate({ ...args, desiredReplicas: stabilized.replicas }, history, now);
  setLimited(hpa, limited, stabilized.replicas, at);
  return limited.replicas;
}

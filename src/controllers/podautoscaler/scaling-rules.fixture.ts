/**
 * Helpers of upstream 1.33 horizontal_test.go for the normalization tests: generateScalingRules,
 * GenerateHPAScaleUpRules / GenerateHPAScaleDownRules (defaults filled in) and
 * generateEventsUniformDistribution, at a fixed clock.
 */
import type { TimestampedScaleEvent } from './scaling-history.js';
import type { ScalingRules } from './types.js';

export const NOW = Date.parse('2026-01-01T12:00:00Z');
export const ago = (seconds: number) => NOW - seconds * 1000;

/** generateScalingRules(pods, podsPeriod, percent, percentPeriod, stabilizationWindow). */
export function rules(
  pods: number,
  podsPeriod: number,
  percent: number,
  percentPeriod: number,
  window: number,
): ScalingRules {
  const policies = [];
  if (pods) policies.push({ type: 'Pods', value: pods, periodSeconds: podsPeriod });
  if (percent) policies.push({ type: 'Percent', value: percent, periodSeconds: percentPeriod });
  return { stabilizationWindowSeconds: window, selectPolicy: 'Max', ...(policies.length ? { policies } : {}) };
}

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: set fields over upstream's defaults. */
export const scaleUpRules = (r?: ScalingRules): ScalingRules => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
  ...r,
});
export const scaleDownRules = (r?: ScalingRules): ScalingRules => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
  ...r,
});

/** generateEventsUniformDistribution: events spread evenly over the period, the first the oldest. */
export function uniform(changes: number[], periodSeconds: number): TimestampedScaleEvent[] {
  const segment = periodSeconds / changes.length;
  return changes.map((replicaChange, i) => ({
    replicaChange,
    timestamp: ago(Math.trunc(periodSeconds - segment * (i + 1) + segment / 2)),
    outdated: false,
  }));
}

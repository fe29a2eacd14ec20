/**
 * Replica arithmetic of rolling updates (upstream deployment/util/deployment_util.go
 * ResolveFenceposts, MaxSurge, MaxUnavailable, NewRSNewReplicas, IsSaturated, GetProportion,
 * getReplicaSetFraction; k8s.io/apimachinery intstr GetScaledValueFromIntOrPercent; k8s.io/utils
 * integer.RoundToInt32). Percentages of the desired count round up for maxSurge and down for
 * maxUnavailable; both resolving to 0 makes maxUnavailable 1.
 */
import { maxReplicasAnnotation, desiredReplicasAnnotation } from './revisions.js';
import { replicaCount } from './replica-sets.js';
import { specReplicas, type Deployment, type ReplicaSet } from './types.js';

/** An intstr.IntOrString as stored (absent: the default given to the reader). */
export type IntOrPercent = number | string | null | undefined;

const PERCENT = /^(-?\d+)%$/;

/**
 * Upstream GetScaledValueFromIntOrPercent: an integer as is; `N%` of `total`, rounded up or
 * down. Throws Error `invalid value for IntOrString: invalid type: string is not a percentage`
 * for another string (upstream's message).
 */
export function scaledValue(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = PERCENT.exec(value);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/**
 * ResolveFenceposts: maxSurge and maxUnavailable as counts of `desired` (absent: 0). Throws as
 * scaledValue for a malformed value.
 */
export function resolveFenceposts(
  maxSurge: IntOrPercent,
  maxUnavailable: IntOrPercent,
  desired: number,
): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge ?? 0, desired, true);
  let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** IsRollingUpdate. */
export const isRollingUpdate = (d: Deployment): boolean => d.spec?.strategy?.type === 'RollingUpdate';

const fenceposts = (d: Deployment) => {
  const r = d.spec?.strategy?.rollingUpdate;
  return resolveFenceposts(r?.maxSurge, r?.maxUnavailable, specReplicas(d));
};

/** MaxUnavailable: 0 unless a rolling update of a non-zero count; never above the desired count. */
export function maxUnavailable(d: Deployment): number {
  if (!isRollingUpdate(d) || specReplicas(d) === 0) return 0;
  return Math.min(fenceposts(d).unavailable, specReplicas(d));
}

/** MaxSurge: 0 unless a rolling update. */
export const maxSurge = (d: Deployment): number => (isRollingUpdate(d) ? fenceposts(d).surge : 0);

/**
 * NewRSNewReplicas: the new ReplicaSet's next size. Rolling: up by what maxSurge leaves room
 * for, never past the desired count; Recreate: the desired count. Throws Error for another
 * strategy type (`deployment type X isn't supported`) or a malformed maxSurge.
 */
export function newRSNewReplicas(
  d: Deployment,
  allRSs: readonly (ReplicaSet | null | undefined)[],
  newRS: ReplicaSet,
): number {
  const desired = specReplicas(d);
  switch (d.spec?.strategy?.type) {
    case 'RollingUpdate': {
      const surge = scaledValue(d.spec.strategy.rollingUpdate?.maxSurge ?? 0, desired, true);
      const current = replicaCount(allRSs);
      const maxTotal = desired + surge;
      if (current >= maxTotal) return specReplicas(newRS);
      return specReplicas(newRS) + Math.min(maxTotal - current, desired - specReplicas(newRS));
    }
    case 'Recreate':
      return desired;
    default:
      throw new Error(`deployment type ${d.spec?.strategy?.type ?? ''} isn't supported`);
  }
}

/** IsSaturated: `rs` has, wants and was annotated with the desired count, all available. */
export function isSaturated(d: Deployment, rs: ReplicaSet | null | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  if (desired === undefined) return false;
  const want = specReplicas(d);
  return specReplicas(rs) === want && desired === want && (rs.status?.availableReplicas ?? 0) === want;
}

/** integer.RoundToInt32: round half away from zero. */
const roundToInt = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

/** getReplicaSetFraction: how much `rs` should grow (or shrink) for the Deployment's new size. */
function replicaSetFraction(rs: ReplicaSet, d: Deployment): number {
  if (specReplicas(d) === 0) return -specReplicas(rs);
  const deploymentMax = specReplicas(d) + maxSurge(d);
  const before = maxReplicasAnnotation(rs) ?? d.status?.replicas ?? 0;
  if (before === 0) return 0;
  return roundToInt((specReplicas(rs) * deploymentMax) / before) - specReplicas(rs);
}

/**
 * GetProportion: the replicas to add to (negative: remove from) `rs` in a proportional scale,
 * bounded by what is left of `toAdd` after `added`.
 */
export function proportion(rs: ReplicaSet | null | undefined, d: Deployment, toAdd: number, added: number): number {
  if (!rs || specReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

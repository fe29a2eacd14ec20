/**
 * The status a PodDisruptionBudget gets (upstream 1.33 pkg/controller/disruption/disruption.go
 * countHealthyPods, buildDisruptedPodMap, updatePdbStatus, failSafe; component-helpers
 * apps/poddisruptionbudget UpdateDisruptionAllowedCondition, ConditionsAreUpToDate;
 * apimachinery meta.SetStatusCondition). Pure functions; times are ms since the epoch.
 */
import { rfc3339 } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import { isPodReady } from '../replicaset/pod-ranking.js';
import { DELETION_TIMEOUT_MS, type PdbCondition, type PdbStatus } from './types.js';

/** The condition type and reasons of policy/v1 (DisruptionAllowedCondition, *Reason). */
export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';

/** status.disruptedPods: pod name -> RFC 3339 time of the eviction. */
export type DisruptedPods = Readonly<Record<string, string>>;

const millis = (t: string) => Date.parse(t);

/**
 * Upstream countHealthyPods: pods that are Ready, not being deleted, and not in `disrupted`
 * with an eviction younger than DeletionTimeout at `now`.
 */
export function countHealthyPods(pods: readonly Pod[], disrupted: DisruptedPods, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const at = disrupted[pod.metadata.name ?? ''];
    if (at !== undefined && millis(at) + DELETION_TIMEOUT_MS > now) continue;
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

/** What buildDisruptedPodMap answers. */
export interface DisruptedPodMap {
  /** The entries kept: pods that exist, are not being deleted, and whose eviction has not expired. */
  readonly disruptedPods: Record<string, string>;
  /** When the earliest kept entry expires (ms), so the budget is synced again then. */
  readonly recheckAt?: number;
  /** Pods whose entry expired without their deletion (upstream's NotDeleted warning). */
  readonly notDeleted: readonly Pod[];
}

/** Upstream buildDisruptedPodMap over the budget's pods at `now`. */
export function buildDisruptedPodMap(pods: readonly Pod[], pdb: PodDisruptionBudget, now: number): DisruptedPodMap {
  const previous = pdb.status?.disruptedPods ?? {};
  const disruptedPods: Record<string, string> = {};
  const notDeleted: Pod[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    const name = pod.metadata.name ?? '';
    const at = previous[name];
    if (at === undefined) continue;
    const expectedDeletion = millis(at) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < now) notDeleted.push(pod);
    else {
      if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
      disruptedPods[name] = at;
    }
  }
  return { disruptedPods, notDeleted, ...(recheckAt === undefined ? {} : { recheckAt }) };
}

/**
 * meta.SetStatusCondition: `wanted` replaces the condition of its type; lastTransitionTime
 * moves to `now` only when the status changes (or the condition is new). Returns a new list.
 */
export function setStatusCondition(
  conditions: readonly PdbCondition[] | null | undefined,
  wanted: Omit<PdbCondition, 'lastTransitionTime'>,
  now: number,
): PdbCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === wanted.type);
  if (i < 0) return [...list, { ...wanted, lastTransitionTime: rfc3339(new Date(now)) }];
  const old = list[i];
  const changed = old.status !== wanted.status;
  list[i] = {
    ...old,
    status: wanted.status,
    reason: wanted.reason,
    message: wanted.message,
    observedGeneration: wanted.observedGeneration,
    lastTransitionTime: changed ? rfc3339(new Date(now)) : old.lastTransitionTime,
  };
  return list;
}

/** UpdateDisruptionAllowedCondition: True/SufficientPods when disruptions are allowed, else False/InsufficientPods. */
export function disruptionAllowedCondition(status: PdbStatus, now: number): PdbCondition[] {
  const allowed = (status.disruptionsAllowed ?? 0) > 0;
  return setStatusCondition(
    status.conditions,
    {
      type: DISRUPTION_ALLOWED,
      status: allowed ? 'True' : 'False',
      reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS,
      message: '',
      observedGeneration: status.observedGeneration ?? 0,
    },
    now,
  );
}

/** ConditionsAreUpToDate: the DisruptionAllowed condition agrees with disruptionsAllowed at the current generation. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const status = pdb.status ?? {};
  const cond = status.conditions?.find((c) => c.type === DISRUPTION_ALLOWED);
  if (!cond || (status.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  return (status.disruptionsAllowed ?? 0) > 0
    ? cond.status === 'True' && cond.reason === SUFFICIENT_PODS
    : cond.status === 'False' && cond.reason === INSUFFICIENT_PODS;
}

/** apiequality.Semantic.DeepEqual of two disruptedPods maps (absent and empty alike). */
function sameDisruptedPods(a: DisruptedPods | null | undefined, b: DisruptedPods): boolean {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b).length && ka.every((k) => b[k] === a?.[k]);
}

/** The counts updatePdbStatus writes. */
export interface PdbCounts {
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
  readonly expectedPods: number;
  readonly disruptedPods: Record<string, string>;
}

/**
 * Upstream updatePdbStatus: the budget with its new status, or undefined when the stored one is
 * already right. disruptionsAllowed = currentHealthy - desiredHealthy, 0 when negative or when
 * no pod is expected; observedGeneration is the budget's generation; other conditions are kept.
 */
export function nextPdbStatus(
  pdb: PodDisruptionBudget,
  counts: PdbCounts,
  now: number,
): PodDisruptionBudget | undefined {
  const status = pdb.status ?? {};
  const generation = pdb.metadata.generation ?? 0;
  let disruptionsAllowed = counts.currentHealthy - counts.desiredHealthy;
  if (counts.expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  const upToDate =
    (status.currentHealthy ?? 0) === counts.currentHealthy &&
    (status.desiredHealthy ?? 0) === counts.desiredHealthy &&
    (status.expectedPods ?? 0) === counts.expectedPods &&
    (status.disruptionsAllowed ?? 0) === disruptionsAllowed &&
    sameDisruptedPods(status.disruptedPods, counts.disruptedPods) &&
    (status.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(pdb);
  if (upToDate) return undefined;
  const next: PdbStatus = {
    currentHealthy: counts.currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedPods: counts.expectedPods,
    disruptionsAllowed,
    ...(Object.keys(counts.disruptedPods).length ? { disruptedPods: counts.disruptedPods } : {}),
    observedGeneration: generation,
    conditions: status.conditions ?? [],
  };
  return { ...pdb, status: { ...next, conditions: disruptionAllowedCondition(next, now) } };
}

/**
 * Upstream failSafe: the budget with disruptionsAllowed 0 and DisruptionAllowed False for
 * reason SyncFailed with `message` (the sync error), the rest of its status kept.
 */
export function failSafeStatus(pdb: PodDisruptionBudget, message: string, now: number): PodDisruptionBudget {
  const status = pdb.status ?? {};
  const conditions = setStatusCondition(
    status.conditions,
    {
      type: DISRUPTION_ALLOWED,
      status: 'False',
      reason: SYNC_FAILED,
      message,
      observedGeneration: status.observedGeneration ?? 0,
    },
    now,
  );
  return { ...pdb, status: { ...status, disruptionsAllowed: 0, conditions } };
}

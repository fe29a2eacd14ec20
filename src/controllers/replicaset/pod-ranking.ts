/**
 * Which pods a replica controller counts and which it deletes first (upstream 1.33
 * pkg/controller/controller_utils.go: IsPodActive, FilterActivePods, ActivePodsWithRanks;
 * pkg/api/v1/pod: IsPodReady, IsPodAvailable; pkg/controller/replicaset/replica_set.go:
 * getPodsToDelete, getPodsRankedByRelatedPodsOnSameNode). Pure functions over pods.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';

/** The annotation whose int32 value ranks pods for deletion (lower first; upstream PodDeletionCost, on by default). */
export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** True unless the pod has finished (Succeeded, Failed) or is terminating (deletionTimestamp set). */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** The active pods of `pods`, in their order (upstream FilterActivePods). */
export function filterActivePods(pods: readonly Pod[]): Pod[] {
  return pods.filter(isPodActive);
}

/** The pod's `Ready` condition, if any. */
function readyCondition(pod: Pod) {
  return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** True when the pod's `Ready` condition is `True` (upstream podutil.IsPodReady). */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/**
 * True when the pod is ready and has been for more than `minReadySeconds` at `now` (ms since
 * the epoch), or `minReadySeconds` is 0 (upstream podutil.IsPodAvailable).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = Date.parse(readyCondition(pod)?.lastTransitionTime ?? '');
  return Number.isFinite(since) && since + minReadySeconds * 1000 < now;
}

/** Upstream helper.GetDeletionCostFromPodAnnotations: the annotation as an int32, 0 when absent or invalid. */
export function deletionCost(pod: Pod): number {
  const raw = pod.metadata.annotations?.[POD_DELETION_COST];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return 0;
  const n = Number(raw);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : 0;
}

const PHASE_ORDINAL: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };

/** A timestamp in ms, 0 for none (Go's zero time). */
const millis = (t: string | undefined | null): number => (t ? Date.parse(t) || 0 : 0);

/** When the pod became ready (0 when it is not ready or the condition has no time). */
function readyTime(pod: Pod): number {
  return isPodReady(pod) ? millis(readyCondition(pod)?.lastTransitionTime) : 0;
}

function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** Upstream afterOrZero: a zero time sorts first, else the later time. */
function afterOrZero(t1: number, t2: number): boolean {
  if (!t1 || !t2) return !t1;
  return t1 > t2;
}

/** floor(log2(now - t)) in nanoseconds, -1 when not in the past (upstream logarithmicRankDiff's ranks). */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/** Compare two timestamps as upstream LogarithmicScaleDown does (GA); ties on the log scale break by uid. */
function newerFirst(t1: number, t2: number, now: number | undefined, a: Pod, b: Pod): boolean {
  if (!now || !t1 || !t2) return afterOrZero(t1, t2);
  const diff = logRank(t1, now) - logRank(t2, now);
  return diff === 0 ? (a.metadata.uid ?? '') < (b.metadata.uid ?? '') : diff < 0;
}

/** A pod and its rank: how many related active pods share its node. */
export interface RankedPod {
  readonly pod: Pod;
  readonly rank: number;
}

/**
 * Upstream ActivePodsWithRanks.Less: whether `a` is preferred for deletion over `b`.
 * Unassigned first; then Pending < Unknown < Running; not ready first; lower deletion cost
 * first; more pods on the same node (higher rank) first; ready more recently first (log scale
 * against `now`, ms); more container restarts first; created more recently first (log scale).
 * `now` undefined compares times exactly (upstream's zero Now).
 */
export function deletesBefore(a: RankedPod, b: RankedPod, now?: number): boolean {
  const [pa, pb] = [a.pod, b.pod];
  const [na, nb] = [pa.spec?.nodeName ?? '', pb.spec?.nodeName ?? ''];
  if (na !== nb && (!na || !nb)) return !na;
  const [oa, ob] = [PHASE_ORDINAL[pa.status?.phase ?? ''] ?? 0, PHASE_ORDINAL[pb.status?.phase ?? ''] ?? 0];
  if (oa !== ob) return oa < ob;
  if (isPodReady(pa) !== isPodReady(pb)) return !isPodReady(pa);
  const [ca, cb] = [deletionCost(pa), deletionCost(pb)];
  if (ca !== cb) return ca < cb;
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (isPodReady(pa) && isPodReady(pb)) {
    const [ra, rb] = [readyTime(pa), readyTime(pb)];
    if (ra !== rb) return newerFirst(ra, rb, now, pa, pb);
  }
  const [xa, xb] = [maxContainerRestarts(pa), maxContainerRestarts(pb)];
  if (xa !== xb) return xa > xb;
  const [ta, tb] = [millis(pa.metadata.creationTimestamp), millis(pb.metadata.creationTimestamp)];
  if (ta !== tb) return newerFirst(ta, tb, now, pa, pb);
  return false;
}

/** Sort ranked pods so those to delete first come first (stable for equal pods). */
export function sortForDeletion(pods: readonly RankedPod[], now?: number): RankedPod[] {
  return [...pods].sort((a, b) => (deletesBefore(a, b, now) ? -1 : deletesBefore(b, a, now) ? 1 : 0));
}

/**
 * Rank each pod by the number of active `related` pods on its node (upstream
 * getPodsRankedByRelatedPodsOnSameNode; pods of every ReplicaSet under the same owner).
 */
export function rankByRelatedPodsOnSameNode(pods: readonly Pod[], related: readonly Pod[]): RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related)
    if (isPodActive(p)) onNode.set(p.spec?.nodeName ?? '', (onNode.get(p.spec?.nodeName ?? '') ?? 0) + 1);
  return pods.map((pod) => ({ pod, rank: onNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
}

/**
 * The `diff` pods of `pods` to delete (upstream getPodsToDelete): all of them in order when
 * `diff` covers them, else the first `diff` by {@link deletesBefore} at `now` (ms).
 */
export function podsToDelete(pods: readonly Pod[], related: readonly Pod[], diff: number, now = Date.now()): Pod[] {
  if (diff >= pods.length) return pods.slice(0, diff);
  return sortForDeletion(rankByRelatedPodsOnSameNode(pods, related), now)
    .slice(0, diff)
    .map((r) => r.pod);
}

/**
 * The core of one StatefulSet sync (upstream 1.33 pkg/controller/statefulset/
 * stateful_set_control.go updateStatefulSet, processReplica, processCondemned, runForAll,
 * slowStartBatch, computeReplicaStatus, updateStatus, updateStatefulSetAfterInvariantEstablished):
 * split the pods into replicas (ordinals in range) and condemned ones; create missing replicas
 * (OrderedReady: one at a time, each waiting for its predecessors to be Running, Ready and
 * Available; Parallel: all at once in slow-start batches), replace failed and succeeded ones,
 * fix identity, storage and claim owners; delete condemned pods (OrderedReady: highest ordinal
 * first, once every replica is healthy); then roll pods not at the update revision, highest
 * ordinal first down to the partition (RollingUpdate; nothing for OnDelete).
 */
import { ApiError } from '../../errors/api-error.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import {
  descendingOrdinal,
  endOrdinal,
  identityMatches,
  newVersionedStatefulSetPod,
  ordinalOf,
  podInOrdinalRange,
  podRevision,
  replicasOf,
  startOrdinal,
  storageMatches,
} from './identity.js';
import {
  allowsBurst,
  isCreated,
  isFailed,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  isUnavailable,
  maxUnavailableOf,
  type StatefulSetStatus,
} from './kind.js';
import { aggregate, type StatefulPodControl } from './pod-control.js';

/** Upstream MaxBatchSize: the largest batch of parallel operations. */
export const MAX_BATCH_SIZE = 500;

/** What updateStatefulSet needs beyond the set and pods. */
export interface ReplicaDeps {
  readonly podControl: StatefulPodControl;
  /** ms since the epoch. */
  readonly now: number;
  /** Feature MaxUnavailableStatefulSet: roll up to maxUnavailable pods at a time. */
  readonly maxUnavailableEnabled: boolean;
}

/** The counts of one list of pods (upstream computeReplicaStatus). */
function countReplicas(pods: readonly Pod[], minReady: number, current: string, update: string, now: number) {
  const c = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const pod of pods) {
    if (isCreated(pod)) c.replicas++;
    if (isRunningAndReady(pod)) {
      c.readyReplicas++;
      if (isRunningAndAvailable(pod, minReady, now)) c.availableReplicas++;
    }
    if (isCreated(pod) && !isTerminating(pod)) {
      const revision = podRevision(pod);
      if (revision === current) c.currentReplicas++;
      if (revision === update) c.updatedReplicas++;
    }
  }
  return c;
}

/** Set the status's counts from the pod lists (upstream updateStatus). Mutates `status`. */
export function updateStatusCounts(
  status: StatefulSetStatus,
  minReady: number,
  current: ControllerRevision,
  update: ControllerRevision,
  now: number,
  ...lists: readonly Pod[][]
): void {
  const total = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
  for (const list of lists) {
    const c = countReplicas(list, minReady, current.metadata.name ?? '', update.metadata.name ?? '', now);
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += c[k];
  }
  Object.assign(status, total);
}

/** Call fn(0..count-1) in batches of 1, 2, 4, ... (at most MAX_BATCH_SIZE), stopping after a batch with a failure. */
async function slowStartBatch(count: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  let remaining = count;
  for (let size = Math.min(remaining, 1); size > 0; size = Math.min(2 * size, remaining, MAX_BATCH_SIZE)) {
    const batch = Array.from({ length: size }, () => fn(next++));
    const failed = (await Promise.allSettled(batch)).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length) throw aggregate(failed.map((r) => r.reason));
    remaining -= size;
  }
}

/**
 * Run fn over the pods (upstream runForAll): monotonic, in order, stopping at the first that
 * asks to (or fails); otherwise all in slow-start batches. Returns whether to stop the sync.
 */
async function runForAll(count: number, fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (!monotonic) {
    await slowStartBatch(count, fn);
    return false;
  }
  for (let i = 0; i < count; i++) if (await fn(i)) return true;
  return false;
}

/** The status a pass reached, and the error that stopped it, if any. */
export interface ReplicasResult {
  readonly status: StatefulSetStatus;
  readonly error?: unknown;
}

/**
 * One pass over the set's pods (upstream updateStatefulSet). Returns the status to write, and
 * the error of a failed operation (the status is written all the same, as upstream does).
 */
export async function updateReplicas(
  set: StatefulSet,
  currentSet: StatefulSet,
  updateSet: StatefulSet,
  current: ControllerRevision,
  update: ControllerRevision,
  collisionCount: number,
  pods: readonly Pod[],
  deps: ReplicaDeps,
): Promise<ReplicasResult> {
  const { podControl, now } = deps;
  const minReady = set.spec?.minReadySeconds ?? 0;
  const status: StatefulSetStatus = {
    observedGeneration: set.metadata.generation ?? 0,
    currentRevision: current.metadata.name ?? '',
    updateRevision: update.metadata.name ?? '',
    collisionCount,
  };
  updateStatusCounts(status, minReady, current, update, now, [...pods]);

  const start = startOrdinal(set);
  const replicas: Pod[] = new Array(replicasOf(set));
  let condemned: Pod[] = [];
  for (const pod of pods) {
    if (podInOrdinalRange(pod, set)) replicas[ordinalOf(pod) - start] = pod;
    else if (ordinalOf(pod) >= 0) condemned.push(pod);
  }
  for (let ord = start; ord <= endOrdinal(set); ord++) {
    replicas[ord - start] ??= newVersionedStatefulSetPod(
      currentSet,
      updateSet,
      current.metadata.name ?? '',
      update.metadata.name ?? '',
      ord,
    );
  }
  condemned = descendingOrdinal(condemned);
  const firstUnavailable =
    replicas.find((p) => isUnavailable(p, minReady, now)) ??
    [...condemned].reverse().find((p) => isUnavailable(p, minReady, now));

  if (set.metadata.deletionTimestamp) return { status };
  const monotonic = !allowsBurst(set);
  const finish = () => {
    updateStatusCounts(status, minReady, current, update, now, replicas, condemned);
    return status;
  };
  try {
    const processReplica = (i: number) => processReplicaAt(set, updateSet, monotonic, replicas, i, deps);
    if (await runForAll(replicas.length, processReplica, monotonic)) return { status: finish() };

    const fixClaims = async (i: number) => {
      if (!(await podControl.claimsMatchRetentionPolicy(updateSet, condemned[i])))
        await podControl.updateClaimsForRetentionPolicy(updateSet, condemned[i]);
      return false;
    };
    if (await runForAll(condemned.length, fixClaims, monotonic)) return { status: finish() };

    const processCondemned = async (i: number) => {
      const pod = condemned[i];
      if (isTerminating(pod)) return monotonic; // ordered: wait for it to be gone
      if (monotonic && pod !== firstUnavailable && isUnavailable(pod, minReady, now)) return true;
      await podControl.deleteStatefulPod(set, pod);
      return true;
    };
    if (await runForAll(condemned.length, processCondemned, monotonic)) return { status: finish() };

    finish();
    if (set.spec?.updateStrategy?.type !== 'OnDelete') await rollReplicas(set, replicas, update, status, deps);
    return { status };
  } catch (error) {
    return { status: finish(), error };
  }
}

/** Upstream processReplica; returns whether the pass must stop here. */
async function processReplicaAt(
  set: StatefulSet,
  updateSet: StatefulSet,
  monotonic: boolean,
  replicas: Pod[],
  i: number,
  deps: ReplicaDeps,
): Promise<boolean> {
  const { podControl, now } = deps;
  const pod = replicas[i];
  if (isFailed(pod) || isSucceeded(pod)) {
    // Delete it; a new pod is made once this one is gone.
    if (!pod.metadata.deletionTimestamp) await podControl.deleteStatefulPod(set, pod);
    return true;
  }
  if (!isCreated(pod)) {
    if (await podControl.podClaimIsStale(set, pod)) return true;
    await podControl.createStatefulPod(set, pod);
    if (monotonic) return true;
  }
  if (isPending(pod)) await podControl.createMissingClaims(set, pod);
  const minReady = set.spec?.minReadySeconds ?? 0;
  if (monotonic && (isTerminating(pod) || !isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now)))
    return true;
  let retentionMatch = true;
  try {
    retentionMatch = await podControl.claimsMatchRetentionPolicy(updateSet, pod);
  } catch {
    // A pod not yet fully updated counts as matching.
  }
  if (identityMatches(set, pod) && storageMatches(set, pod) && retentionMatch) return false;
  await podControl.updateStatefulPod(updateSet, pod);
  return false;
}

/**
 * Delete the pods not at the update revision, highest ordinal first, down to the partition
 * (upstream's rolling loop, or updateStatefulSetAfterInvariantEstablished with
 * MaxUnavailableStatefulSet). Lowers status.currentReplicas per deletion.
 */
async function rollReplicas(
  set: StatefulSet,
  replicas: readonly Pod[],
  update: ControllerRevision,
  status: StatefulSetStatus,
  deps: ReplicaDeps,
): Promise<void> {
  const minReady = set.spec?.minReadySeconds ?? 0;
  const rolling = set.spec?.updateStrategy?.rollingUpdate;
  const updateMin = rolling?.partition ?? 0;
  const stale = (pod: Pod) => podRevision(pod) !== update.metadata.name && !isTerminating(pod);
  const remove = async (pod: Pod) => {
    try {
      await deps.podControl.deleteStatefulPod(set, pod);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    status.currentReplicas = (status.currentReplicas ?? 0) - 1;
  };
  if (!deps.maxUnavailableEnabled) {
    for (let target = replicas.length - 1; target >= updateMin; target--) {
      if (stale(replicas[target])) return remove(replicas[target]);
      if (isUnavailable(replicas[target], minReady, deps.now)) return;
    }
    return;
  }
  const maxUnavailable = maxUnavailableOf(rolling?.maxUnavailable, replicasOf(set));
  const unavailable = replicas.filter((p) => isUnavailable(p, minReady, deps.now)).length;
  if (unavailable > maxUnavailable) return;
  let toDelete = maxUnavailable - unavailable;
  for (let target = replicas.length - 1; target >= updateMin && toDelete > 0; target--) {
    if (!stale(replicas[target])) continue;
    await remove(replicas[target]);
    toDelete--;
  }
}

/**
 * One sync of a ReplicaSet or ReplicationController (upstream 1.33
 * pkg/controller/replicaset/replica_set.go syncReplicaSet, manageReplicas, claimPods,
 * getIndirectlyRelatedPods, getReplicaSetsWithSameController): claim the namespace's active
 * pods, create or delete pods toward spec.replicas (at most burstReplicas per sync, creations in
 * slow-start batches) when the controller's expectations are satisfied and it is not being
 * deleted, then write the status through `/status`. The I/O is behind {@link ReplicaClient}, so
 * the logic runs against a fake in unit tests as upstream's runs against its fake clients.
 */
import type { OwnerReference } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { claimPods, recheckDeletionTimestamp, type ClaimWrites } from './claim.js';
import type { ControllerExpectations } from './expectations.js';
import { filterActivePods, podsToDelete } from './pod-ranking.js';
import { podFromTemplate, slowStartBatch, SLOW_START_INITIAL_BATCH_SIZE } from './pod-template.js';
import { calculateStatus, statusUnchanged } from './status.js';
import { matchesLabels } from '../../api/label-selector.js';
import {
  controllerOf,
  controllerRefFor,
  desiredReplicas,
  keyOf,
  type Workload,
  type WorkloadKind,
  type WorkloadStatus,
} from './workload.js';

/** Upstream BurstReplicas: at most this many pods are created or deleted per sync. */
export const BURST_REPLICAS = 500;

/** Reads and writes one sync needs (listers read the watch cache; the writes go through admission). */
export interface ReplicaClient extends ClaimWrites {
  /** The controller from the cache, undefined when absent. */
  getController(namespace: string, name: string): Promise<Workload | undefined>;
  /** A quorum read of the controller (before adopting). Throws ApiError 404. */
  getControllerFresh(namespace: string, name: string): Promise<Workload>;
  /** The namespace's controllers of this kind. */
  listControllers(namespace: string): Promise<Workload[]>;
  /** The namespace's pods. */
  listPods(namespace: string): Promise<Pod[]>;
  /** Create `pod` (generateName set) for `owner` (which an Event names). Throws ApiError. */
  createPod(namespace: string, pod: Pod, owner: Workload): Promise<void>;
  /** Delete the pod for `owner` (graceful, as a client's delete). Throws ApiError. */
  deletePod(namespace: string, name: string, owner: Workload): Promise<void>;
  /** Write `status` through `/status` (observedGeneration included); returns the stored controller. Throws ApiError. */
  writeStatus(obj: Workload, status: WorkloadStatus): Promise<Workload>;
}

/** What a sync asks of the queue: run again after this many ms (minReadySeconds availability check). */
export interface SyncResult {
  readonly requeueAfterMs?: number;
}

/** Everything a sync uses beyond the key. */
export interface SyncDeps {
  readonly kind: WorkloadKind;
  readonly client: ReplicaClient;
  readonly expectations: ControllerExpectations;
  readonly burstReplicas?: number;
  /** ms since the epoch (tests fix it). */
  readonly now?: () => number;
}

/** A create refused because the namespace is terminating: nothing to do (upstream NamespaceTerminatingCause). */
export function namespaceTerminating(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.code !== 403) return false;
  const causes = err.details?.causes ?? [];
  return causes.some((c) => String(c.reason) === 'NamespaceTerminating') || /is being terminated/.test(err.message);
}

/**
 * Sync the controller `namespace/name`. Returns when to sync again; throws the error of the
 * pod creations or deletions (after the status is written) or of a read or status write, for
 * the queue to retry with backoff.
 */
export async function syncReplicas(namespace: string, name: string, deps: SyncDeps): Promise<SyncResult> {
  const { kind, client, expectations } = deps;
  const key = `${namespace}/${name}`;
  const obj = await client.getController(namespace, name);
  if (!obj) {
    expectations.delete(key);
    return {};
  }
  const needsSync = expectations.satisfied(key);
  let selector;
  try {
    selector = kind.selectorOf(obj);
  } catch {
    return {}; // an invalid selector matches nothing: nothing to do (upstream logs it)
  }
  const active = filterActivePods(await client.listPods(namespace));
  const ref = controllerRefFor(obj, kind);
  const pods = await claimPods(obj, selector, ref, active, client, () =>
    recheckDeletionTimestamp(obj, kind.kind, () => client.getControllerFresh(namespace, name)),
  );
  let manageError: unknown;
  if (needsSync && !obj.metadata.deletionTimestamp) {
    try {
      await manageReplicas(obj, pods, ref, deps);
    } catch (err) {
      manageError = err;
    }
  }
  const now = deps.now?.() ?? Date.now();
  const status = calculateStatus(obj, pods, manageError, now);
  const updated = statusUnchanged(obj, status)
    ? obj
    : await client.writeStatus(obj, { ...status, observedGeneration: obj.metadata.generation ?? 0 });
  if (manageError !== undefined) throw manageError;
  const want = desiredReplicas(updated);
  const minReady = updated.spec?.minReadySeconds ?? 0;
  const st = updated.status ?? {};
  if (minReady > 0 && (st.readyReplicas ?? 0) === want && (st.availableReplicas ?? 0) !== want)
    return { requeueAfterMs: minReady * 1000 };
  return {};
}

/** Create or delete pods so `pods` (active, claimed) approaches spec.replicas (upstream manageReplicas). */
async function manageReplicas(obj: Workload, pods: readonly Pod[], ref: OwnerReference, deps: SyncDeps) {
  const { client, expectations } = deps;
  const burst = deps.burstReplicas ?? BURST_REPLICAS;
  const key = keyOf(obj);
  const namespace = obj.metadata.namespace ?? '';
  let diff = pods.length - desiredReplicas(obj);
  if (diff < 0) {
    diff = Math.min(-diff, burst);
    expectations.expectCreations(key, diff);
    const { successes, error } = await slowStartBatch(diff, SLOW_START_INITIAL_BATCH_SIZE, async () => {
      const pod = podFromTemplate(obj.spec?.template ?? undefined, namespace, obj.metadata.name ?? '', ref);
      await client.createPod(namespace, pod, obj).catch((err) => {
        if (!namespaceTerminating(err)) throw err;
      });
    });
    // Pods never attempted will not be observed: stop expecting them.
    for (let i = successes; i < diff; i++) expectations.creationObserved(key);
    if (error !== undefined) throw error;
  } else if (diff > 0) {
    diff = Math.min(diff, burst);
    const related = await relatedPods(obj, deps);
    const victims = podsToDelete(pods, related, diff, deps.now?.() ?? Date.now());
    expectations.expectDeletions(key, victims.map(keyOf));
    const results = await Promise.allSettled(
      victims.map((pod) =>
        client.deletePod(namespace, pod.metadata.name ?? '', obj).catch((err) => {
          // The delete will not be observed: stop expecting it.
          expectations.deletionObserved(key, keyOf(pod));
          if (!(err instanceof ApiError && err.code === 404)) throw err;
        }),
      ),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/**
 * The pods of every controller of this kind that shares `obj`'s own controller (a Deployment's
 * ReplicaSets), each once (upstream getIndirectlyRelatedPods); none when `obj` has no controller.
 */
export async function relatedPods(obj: Workload, { kind, client }: Pick<SyncDeps, 'kind' | 'client'>): Promise<Pod[]> {
  const owner = controllerOf(obj);
  if (!owner) return [];
  const namespace = obj.metadata.namespace ?? '';
  const siblings = (await client.listControllers(namespace)).filter((c) => controllerOf(c)?.uid === owner.uid);
  const pods = await client.listPods(namespace);
  const seen = new Set<string>();
  const out: Pod[] = [];
  for (const sibling of siblings) {
    let selector;
    try {
      selector = kind.selectorOf(sibling);
    } catch {
      continue;
    }
    if (!selector) continue;
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? '';
      if (seen.has(uid) || !matchesLabels(selector, pod.metadata.labels)) continue;
      seen.add(uid);
      out.push(pod);
    }
  }
  return out;
}

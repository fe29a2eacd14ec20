/**
 * The reads and writes of the StatefulSet controller (upstream 1.33 listers and clientset calls
 * of pkg/controller/statefulset: StatefulPodControlObjectManager, the history.Interface of
 * pkg/controller/history, StatefulSetStatusUpdater), behind an interface so the sync logic runs
 * against an in-memory fake in unit tests (fake-client.fixture.ts) and against this server's
 * stores otherwise (registry-client.ts). Reads come from the watch cache unless named fresh;
 * writes throw ApiError (404, 409, 422, ...).
 */
import type { OwnerReference } from '../../api/object.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import type { ClaimWrites } from '../replicaset/claim.js';
import type { StatefulSetStatus } from './kind.js';

/** An Event about a set (core/v1, source `statefulset-controller`). */
export interface SetEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface StatefulSetClient extends ClaimWrites {
  /** The set from the cache, undefined when absent. */
  getSet(namespace: string, name: string): Promise<StatefulSet | undefined>;
  /** A quorum read of the set (before adopting). Throws ApiError 404. */
  getSetFresh(namespace: string, name: string): Promise<StatefulSet>;
  /** The namespace's sets ('' for all namespaces). */
  listSets(namespace: string): Promise<StatefulSet[]>;

  /** The namespace's pods. */
  listPods(namespace: string): Promise<Pod[]>;
  /** The pod from the cache, undefined when absent. */
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
  /** Create the pod (named); returns the stored pod. */
  createPod(pod: Pod): Promise<Pod>;
  /** Replace the pod (its resourceVersion as a precondition); returns the stored pod. */
  updatePod(pod: Pod): Promise<Pod>;
  /** Delete the pod gracefully, as a client's delete. */
  deletePod(namespace: string, name: string): Promise<void>;

  /** The claim from the cache, undefined when absent. */
  getClaim(namespace: string, name: string): Promise<PersistentVolumeClaim | undefined>;
  /** Create the claim; returns the stored claim. */
  createClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  /** Set the claim's owner references (on the stored claim of the same uid). */
  setClaimOwners(claim: PersistentVolumeClaim, refs: OwnerReference[]): Promise<void>;

  /** The namespace's ControllerRevisions. */
  listRevisions(namespace: string): Promise<ControllerRevision[]>;
  /** A fresh read of a revision. Throws ApiError 404. */
  getRevision(namespace: string, name: string): Promise<ControllerRevision>;
  /** Create the revision; throws ApiError 409 AlreadyExists when the name is taken. */
  createRevision(rev: ControllerRevision): Promise<ControllerRevision>;
  /** Set the revision's number (retried on conflicts); returns the stored revision. */
  setRevisionNumber(rev: ControllerRevision, revision: number): Promise<ControllerRevision>;
  /** Add `ref` to an orphan revision's owners, if it still has no controller; returns the stored revision. */
  adoptRevision(rev: ControllerRevision, ref: OwnerReference): Promise<ControllerRevision>;
  /** Delete the revision. */
  deleteRevision(namespace: string, name: string): Promise<void>;

  /** Write the set's status through `/status` (upstream UpdateStatefulSetStatus, retried on conflicts). */
  writeStatus(set: StatefulSet, status: StatefulSetStatus): Promise<StatefulSet>;
  /** Record an Event about the set (best effort). */
  event(set: StatefulSet, event: SetEvent): void;
}

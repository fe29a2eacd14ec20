/**
 * The DaemonSet controller's contracts: what one sync reads and writes (upstream 1.33
 * DaemonSetsController's listers, kubeClient calls, RealPodControl and
 * RealControllerRevisionControl), so the sync logic runs against the registry in the server
 * and against an in-memory fake in unit tests, as upstream's runs against its fake clientset.
 */
import type { OwnerReference } from '../../api/object.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClaimWrites } from '../replicaset/claim.js';
import type { ControllerExpectations } from '../replicaset/expectations.js';
import type { FailedPodsBackoff } from './failed-pods-backoff.js';

/** A DaemonSet's status as the controller writes it. */
export type DaemonSetStatus = NonNullable<DaemonSet['status']>;

/** The Events the controller records (upstream's reasons: its own and RealPodControl's). */
export type DaemonSetEventReason =
  | 'SelectingAll'
  | 'FailedDaemonPod'
  | 'SucceededDaemonPod'
  | 'SuccessfulCreate'
  | 'FailedCreate'
  | 'SuccessfulDelete'
  | 'FailedDelete';

/** Reads (the watch cache, as listers) and writes (through admission, as the controller's user). */
export interface DaemonSetClient extends ClaimWrites {
  /** The DaemonSet from the cache; undefined when absent. */
  getDaemonSet(namespace: string, name: string): Promise<DaemonSet | undefined>;
  /** A quorum read of the DaemonSet. Throws ApiError 404. */
  getDaemonSetFresh(namespace: string, name: string): Promise<DaemonSet>;
  /** Every node. */
  listNodes(): Promise<Node[]>;
  /** The namespace's pods (all phases, terminating ones included). */
  listPods(namespace: string): Promise<Pod[]>;
  /** The namespace's ControllerRevisions. */
  listRevisions(namespace: string): Promise<ControllerRevision[]>;
  /** Create `pod` (generateName set) for `ds`. Throws ApiError. */
  createPod(namespace: string, pod: Pod, ds: DaemonSet): Promise<void>;
  /** Delete the pod for `ds`. Throws ApiError (404 when gone). */
  deletePod(namespace: string, name: string, ds: DaemonSet): Promise<void>;
  /** Merge `labels` into the pod's labels (upstream's merge patch in dedupCurHistories). Throws ApiError. */
  labelPod(namespace: string, name: string, labels: Readonly<Record<string, string>>): Promise<void>;
  /** Create a ControllerRevision. Throws ApiError (409 AlreadyExists). */
  createRevision(rev: ControllerRevision): Promise<ControllerRevision>;
  /** A quorum read of a ControllerRevision. Throws ApiError 404. */
  getRevisionFresh(namespace: string, name: string): Promise<ControllerRevision>;
  /** Replace a ControllerRevision's labels and revision (its data is immutable). Throws ApiError. */
  updateRevision(rev: ControllerRevision): Promise<ControllerRevision>;
  /** Delete a ControllerRevision. Throws ApiError. */
  deleteRevision(namespace: string, name: string): Promise<void>;
  /** Add `ref` to the revision's owners if it has none controlling it. Throws ApiError. */
  adoptRevision(rev: ControllerRevision, ref: OwnerReference): Promise<void>;
  /** Drop the owner `ownerUid` from the revision. Throws ApiError. */
  releaseRevision(rev: ControllerRevision, ownerUid: string): Promise<void>;
  /**
   * Write the status counts (and observedGeneration when given) through `/status` onto the
   * stored DaemonSet with `ds`'s uid. Throws ApiError.
   */
  writeStatus(ds: DaemonSet, counts: DaemonSetStatus): Promise<void>;
  /** Write status.collisionCount `count` onto the stored DaemonSet with `ds`'s uid. Throws ApiError. */
  setCollisionCount(ds: DaemonSet, count: number): Promise<void>;
  /** Record an Event about `ds` (best effort). */
  event(ds: DaemonSet, type: 'Normal' | 'Warning', reason: DaemonSetEventReason, message: string): void;
}

/** Everything a sync uses beyond the key. */
export interface SyncDeps {
  readonly client: DaemonSetClient;
  /** Pod creations expected per DaemonSet key (upstream's expectations, adds). */
  readonly creations: ControllerExpectations;
  /** Pod deletions expected per DaemonSet key (by pod key). */
  readonly deletions: ControllerExpectations;
  /** Back-off of failed pods' replacement per DaemonSet, generation and node. */
  readonly backoff: FailedPodsBackoff;
  /** Queue the DaemonSet `namespace/name` again after `ms`. */
  readonly enqueueAfter: (key: string, ms: number) => void;
  /** Most pods created or deleted per sync (default 250, upstream BurstReplicas). */
  readonly burstReplicas?: number;
  /** ms since the epoch (tests fix it). */
  readonly now?: () => number;
}

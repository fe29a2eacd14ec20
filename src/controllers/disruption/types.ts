/**
 * What the disruption controller reads and writes (upstream 1.33 pkg/controller/disruption:
 * its listers of pods, PodDisruptionBudgets, ReplicationControllers, ReplicaSets, Deployments
 * and StatefulSets, its scale client and REST mapper, its UpdateStatus calls and its event
 * recorder), as one interface so the sync logic is tested without a server.
 */
import type { ApiObject } from '../../api/object.js';
import type { Deployment } from '../../resources/deployments/deployments.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PodDisruptionBudget } from '../../resources/poddisruptionbudgets/poddisruptionbudgets.schema.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';
import type { ReplicationController } from '../../resources/replicationcontrollers/replicationcontrollers.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import type { LegacyEvent } from '../events.js';

/** The controller's name in `--controllers` (upstream's, on by default). */
export const DISRUPTION_CONTROLLER = 'disruption';

/** Its service account in kube-system (upstream's disruption-controller credentials). */
export const DISRUPTION_SERVICE_ACCOUNT = 'disruption-controller';

/** Upstream DeletionTimeout: how long an entry of status.disruptedPods waits for the pod's deletion (ms). */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** The PodDisruptionBudget status the controller writes. */
export type PdbStatus = NonNullable<PodDisruptionBudget['status']>;

/** A status condition of a PodDisruptionBudget (metav1.Condition). */
export type PdbCondition = NonNullable<PdbStatus['conditions']>[number];

/** A controller's Scale as the finders need it: its uid and spec.replicas. */
export interface ScaleAnswer {
  readonly uid: string;
  readonly scale: number;
}

/** The reads (from the watch cache) and writes of the controller. Reads answer undefined for a missing object. */
export interface DisruptionClient {
  getPdb(namespace: string, name: string): Promise<PodDisruptionBudget | undefined>;
  listPdbs(namespace: string): Promise<PodDisruptionBudget[]>;
  /** Every pod of the namespace (the caller applies the budget's selector). */
  listPods(namespace: string): Promise<Pod[]>;
  getPod(namespace: string, name: string): Promise<Pod | undefined>;
  getReplicaSet(namespace: string, name: string): Promise<ReplicaSet | undefined>;
  getDeployment(namespace: string, name: string): Promise<Deployment | undefined>;
  getStatefulSet(namespace: string, name: string): Promise<StatefulSet | undefined>;
  getReplicationController(namespace: string, name: string): Promise<ReplicationController | undefined>;
  /**
   * The Scale of `kind` in `apiVersion` named `name` (upstream's RESTMapping, then the scale
   * client): undefined when the object does not exist; throws when the kind is not served at
   * that version (`no matches for kind ...`) or has no `scale` subresource
   * (`<resource>.<group> does not implement the scale subresource`).
   */
  getScale(apiVersion: string, kind: string, namespace: string, name: string): Promise<ScaleAnswer | undefined>;
  /**
   * UpdateStatus: write `pdb` (its status) through `poddisruptionbudgets/status` at the
   * resourceVersion it carries; throws a 409 ApiError when the budget changed since.
   */
  writeStatus(pdb: PodDisruptionBudget): Promise<void>;
  /** UpdateStatus of a pod through `pods/status` at the resourceVersion it carries (409 when it moved). */
  writePodStatus(pod: Pod): Promise<void>;
  /** Record an Event about `obj` (a PodDisruptionBudget or a Pod); best effort. */
  record(obj: ApiObject, kind: 'PodDisruptionBudget' | 'Pod', event: LegacyEvent): void;
}

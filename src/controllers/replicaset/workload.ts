/**
 * What the replica controller reads of the two kinds it serves (upstream 1.33
 * pkg/controller/replicaset serves ReplicaSets; pkg/controller/replication wraps the same code
 * for ReplicationControllers, converting them to ReplicaSets): the spec's replicas,
 * minReadySeconds, selector and template, and the status it writes. The difference that
 * matters is the selector: a metav1.LabelSelector on a ReplicaSet, a plain label map on a
 * ReplicationController.
 */
import { labelSelectorOf, type LabelSelector, type LabelSelectorObject } from '../../api/label-selector.js';
import type { ApiObject, OwnerReference } from '../../api/object.js';
import type { ReplicaSet } from '../../resources/replicasets/replicasets.schema.js';
import type { ReplicationController } from '../../resources/replicationcontrollers/replicationcontrollers.schema.js';

/** The status both kinds carry (ReplicaSetStatus; an RC's has the same fields but terminatingReplicas). */
export type WorkloadStatus = NonNullable<ReplicaSet['status']>;
/** A status condition (ReplicaSetCondition / ReplicationControllerCondition). */
export type WorkloadCondition = NonNullable<WorkloadStatus['conditions']>[number];
/** The pod template both kinds carry. */
export type PodTemplate = NonNullable<NonNullable<ReplicaSet['spec']>['template']>;

/** A ReplicaSet or a ReplicationController, as the controller reads it. */
export type Workload = ReplicaSet | ReplicationController;

/** Which kind a controller instance serves, and how to read that kind's selector. */
export interface WorkloadKind {
  /** `ReplicaSet` or `ReplicationController` (the controllerRef kind it owns pods by). */
  readonly kind: string;
  /** `apps/v1` or `v1` (the controllerRef apiVersion). */
  readonly apiVersion: string;
  /** The controller's name in `--controllers`. */
  readonly controllerName: string;
  /**
   * Its service account in kube-system (kube-controller-manager's per-controller credentials),
   * also its Events' source component.
   */
  readonly serviceAccount: string;
  /**
   * The selector's requirements; null when it selects nothing (absent, as upstream's nil
   * selector). Throws SelectorParseError for an invalid selector.
   */
  selectorOf(obj: Workload): LabelSelector | null;
}

/** ReplicaSets: `spec.selector` is a LabelSelector (upstream metav1.LabelSelectorAsSelector). */
export const REPLICA_SET_KIND: WorkloadKind = {
  kind: 'ReplicaSet',
  apiVersion: 'apps/v1',
  controllerName: 'replicaset',
  serviceAccount: 'replicaset-controller',
  selectorOf: (obj) => {
    const sel = obj.spec?.selector as LabelSelectorObject | null | undefined;
    return sel ? labelSelectorOf(sel) : null;
  },
};

/** ReplicationControllers: `spec.selector` is a label map (upstream's conversion to matchLabels). */
export const REPLICATION_CONTROLLER_KIND: WorkloadKind = {
  kind: 'ReplicationController',
  apiVersion: 'v1',
  controllerName: 'replicationcontroller',
  serviceAccount: 'replication-controller',
  selectorOf: (obj) => {
    const sel = obj.spec?.selector as Record<string, string> | null | undefined;
    return sel ? labelSelectorOf({ matchLabels: sel }) : null;
  },
};

/** `namespace/name`, the work-queue and expectations key (upstream KeyFunc, PodKey). */
export function keyOf(obj: ApiObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/** The desired replicas (defaulted to 1 on write; 1 when absent, as the defaulting would). */
export function desiredReplicas(obj: Workload): number {
  return obj.spec?.replicas ?? 1;
}

/** The owner reference marked controller, if any (upstream metav1.GetControllerOf). */
export function controllerOf(obj: ApiObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/**
 * The controllerRef a controller puts on its pods (upstream metav1.NewControllerRef):
 * controller and blockOwnerDeletion true.
 */
export function controllerRefFor(owner: Workload, kind: WorkloadKind): OwnerReference {
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

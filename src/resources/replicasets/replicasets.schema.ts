/**
 * ReplicaSet fields (k8s.io/api apps/v1 types.go, today's fields; apps/v1beta2 and
 * extensions/v1beta1 have the same ones, only the selector's description differs: the older
 * versions default it from the template's labels).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, mergedList, obj, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';
import { podTemplateSchema } from '../deployments/deployments.schema.js';

const statusSchema = obj({
  availableReplicas: int.describe(
    'The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.',
  ),
  conditions: mergedList(
    reqObj({
      lastTransitionTime: time.describe('The last time the condition transitioned from one status to another.'),
      message: str.describe('A human readable message indicating details about the transition.'),
      reason: str.describe("The reason for the condition's last transition."),
      status: reqStr.describe('Status of the condition, one of True, False, Unknown.'),
      type: reqStr.describe('Type of replica set condition.'),
    }),
    { key: 'type' },
  ).describe("Represents the latest available observations of a replica set's current state."),
  fullyLabeledReplicas: int.describe(
    'The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.',
  ),
  observedGeneration: int.describe(
    'ObservedGeneration reflects the generation of the most recently observed ReplicaSet.',
  ),
  readyReplicas: int.describe('The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.'),
  replicas: int.describe('Replicas is the most recently observed number of non-terminating pods.'),
  terminatingReplicas: int.describe(
    'The number of terminating pods for this replica set. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.',
  ),
}).describe(
  'Status is the most recently observed status of the ReplicaSet. This data may be out of date by some window of time. Populated by the system. Read-only.',
);

function replicaSetSchemaOf(selector: string) {
  return kindSchema({
    spec: obj({
      minReadySeconds: int.describe(
        'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)',
      ),
      replicas: int.describe(
        'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.',
      ),
      selector: labelSelectorSchema.describe(
        `Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. ${selector}`,
      ),
      template: podTemplateSchema(
        'Template is the object that describes the pod that will be created if insufficient replicas are detected.',
      ),
    }).describe('Spec defines the specification of the desired behavior of the ReplicaSet.'),
    status: statusSchema,
  });
}

/** apps/v1 (the storage version) and apps/v1beta2. */
export const replicaSetSchema = replicaSetSchemaOf("It must match the pod template's labels.");
/** extensions/v1beta1. */
export const replicaSetExtensionsSchema = replicaSetSchemaOf(
  'If the selector is empty, it is defaulted to the labels present on the pod template.',
);

/** A ReplicaSet as stored (apps/v1). */
export type ReplicaSet = KindObject<typeof replicaSetSchema>;

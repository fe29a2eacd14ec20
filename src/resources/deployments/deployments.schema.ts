/**
 * Deployment fields at each served version (k8s.io/api apps/v1, apps/v1beta2, apps/v1beta1 and
 * extensions/v1beta1 types.go, today's fields): apps/v1 (the storage version) and apps/v1beta2
 * are alike; apps/v1beta1 and extensions/v1beta1 add the deprecated `spec.rollbackTo`. Only the
 * descriptions of defaults differ otherwise (each version defaults differently, see
 * deployments.defaults.ts). `spec.strategy` is `patchStrategy:"retainKeys"` upstream: strategic
 * merge honours the `$retainKeys` directive kubectl sends for it.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { bool, int, intOrString, mergedList, obj, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';

/** The versions a Deployment is served at. */
export type DeploymentVersion = 'apps/v1' | 'apps/v1beta2' | 'apps/v1beta1' | 'extensions/v1beta1';

/** How each version describes what it defaults. */
const DEFAULTS: Record<DeploymentVersion, { history: string; deadline: string; rolling: string; selector: string }> = {
  'apps/v1': {
    history: 'Defaults to 10.',
    deadline: 'Defaults to 600s.',
    rolling: 'Defaults to 25%.',
    selector: "Required; it must match the pod template's labels, and cannot change once set.",
  },
  'apps/v1beta2': {
    history: 'Defaults to 10.',
    deadline: 'Defaults to 600s.',
    rolling: 'Defaults to 25%.',
    selector: "Required; it must match the pod template's labels, and cannot change once set.",
  },
  'apps/v1beta1': {
    history: 'Defaults to 2.',
    deadline: 'Defaults to 600s.',
    rolling: 'Defaults to 25%.',
    selector: "Defaults to the pod template's labels.",
  },
  'extensions/v1beta1': {
    history:
      'This is set to the max value of int32 (i.e. 2147483647) by default, which means "retaining all old ReplicaSets".',
    deadline: 'This is set to the max value of int32 (i.e. 2147483647) by default, which means "no deadline".',
    rolling: 'By default, a fixed value of 1 is used.',
    selector: "Defaults to the pod template's labels.",
  },
};

/** PodTemplateSpec: the pods a workload creates. */
export const podTemplateSchema = (description: string) =>
  obj({
    metadata: strictObjectMeta.describe("Standard object's metadata of the pods: their labels and annotations."),
    spec: podSpec.nullable().optional().describe('Specification of the desired behavior of the pod.'),
  }).describe(description);

const strategySchema = (d: (typeof DEFAULTS)[DeploymentVersion]) =>
  obj({
    rollingUpdate: obj({
      maxSurge: intOrString.describe(
        `The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. ${d.rolling} Example: when this is set to 30%, the new ReplicaSet can be scaled up immediately when the rolling update starts, such that the total number of old and new pods do not exceed 130% of desired pods. Once old pods have been killed, new ReplicaSet can be scaled up further, ensuring that total number of pods running at any time during the update is at most 130% of desired pods.`,
      ),
      maxUnavailable: intOrString.describe(
        `The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. ${d.rolling} Example: when this is set to 30%, the old ReplicaSet can be scaled down to 70% of desired pods immediately when the rolling update starts. Once new pods are ready, old ReplicaSet can be scaled down further, followed by scaling up the new ReplicaSet, ensuring that the total number of pods available at all times during the update is at least 70% of desired pods.`,
      ),
    }).describe('Rolling update config params. Present only if DeploymentStrategyType = RollingUpdate.'),
    type: str.describe(
      'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.\n\nPossible enum values:\n - `"Recreate"` Kill all existing pods before creating new ones.\n - `"RollingUpdate"` Replace the old ReplicaSets by new one using rolling update i.e gradually scale down the old ReplicaSets and scale up the new one.',
    ),
  }).describe('The deployment strategy to use to replace existing pods with new ones.');

/** DeploymentStatus (alike at every version). */
const statusSchema = obj({
  availableReplicas: int.describe(
    'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
  ),
  collisionCount: int.describe(
    'Count of hash collisions for the Deployment. The Deployment controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.',
  ),
  conditions: mergedList(
    reqObj({
      lastTransitionTime: time.describe('Last time the condition transitioned from one status to another.'),
      lastUpdateTime: time.describe('The last time this condition was updated.'),
      message: str.describe('A human readable message indicating details about the transition.'),
      reason: str.describe("The reason for the condition's last transition."),
      status: reqStr.describe('Status of the condition, one of True, False, Unknown.'),
      type: reqStr.describe('Type of deployment condition.'),
    }),
    { key: 'type' },
  ).describe("Represents the latest available observations of a deployment's current state."),
  observedGeneration: int.describe('The generation observed by the deployment controller.'),
  readyReplicas: int.describe(
    'Total number of non-terminating pods targeted by this Deployment with a Ready Condition.',
  ),
  replicas: int.describe(
    'Total number of non-terminating pods targeted by this deployment (their labels match the selector).',
  ),
  terminatingReplicas: int.describe(
    'Total number of terminating pods targeted by this deployment. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.',
  ),
  unavailableReplicas: int.describe(
    'Total number of unavailable pods targeted by this deployment. This is the total number of pods that are still required for the deployment to have 100% available capacity. They may either be pods that are running but not yet available or pods that still have not been created.',
  ),
  updatedReplicas: int.describe(
    'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
  ),
}).describe('Most recently observed status of the Deployment.');

/** RollbackConfig (apps/v1beta1, extensions/v1beta1). */
export const rollbackConfigSchema = obj({
  revision: int.describe('The revision to rollback to. If set to 0, rollback to the last revision.'),
});

/** DeploymentSpec's fields at `version`. */
function specShape(version: DeploymentVersion) {
  const d = DEFAULTS[version];
  return {
    minReadySeconds: int.describe(
      'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)',
    ),
    paused: bool.describe('Indicates that the deployment is paused.'),
    progressDeadlineSeconds: int.describe(
      `The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. ${d.deadline}`,
    ),
    replicas: int.describe(
      'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
    ),
    revisionHistoryLimit: int.describe(
      `The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. ${d.history}`,
    ),
    selector: labelSelectorSchema.describe(
      `Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. ${d.selector}`,
    ),
    strategy: strategySchema(d),
    template: podTemplateSchema(
      'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
    ),
  };
}

/** The Deployment schema of `version`. */
function deploymentSchemaOf<V extends DeploymentVersion>(version: V) {
  return kindSchema({
    spec: obj(specShape(version)).describe('Specification of the desired behavior of the Deployment.'),
    status: statusSchema,
  });
}

/** apps/v1 (the storage version) and apps/v1beta2. */
export const deploymentSchema = deploymentSchemaOf('apps/v1');
export const deploymentV1beta2Schema = deploymentSchemaOf('apps/v1beta2');

/** apps/v1beta1 and extensions/v1beta1: with the deprecated spec.rollbackTo. */
const withRollbackTo = (version: DeploymentVersion) =>
  kindSchema({
    spec: obj({
      ...specShape(version),
      rollbackTo: rollbackConfigSchema.describe(
        'DEPRECATED. The config this deployment is rolling back to. Will be cleared after rollback is done.',
      ),
    }).describe('Specification of the desired behavior of the Deployment.'),
    status: statusSchema,
  });
export const deploymentV1beta1Schema = withRollbackTo('apps/v1beta1');
export const deploymentExtensionsSchema = withRollbackTo('extensions/v1beta1');

/** A Deployment as stored (apps/v1): what its strategy, printer and subresources see. */
export type Deployment = KindObject<typeof deploymentSchema>;

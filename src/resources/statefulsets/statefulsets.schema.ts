/**
 * StatefulSet fields (k8s.io/api apps/v1 types.go; apps/v1beta2 and apps/v1beta1 have the same
 * fields and JSON names, only their defaults differ). The pod template reuses the PodSpec schema,
 * the claim templates the PersistentVolumeClaim kind's own schema. Also the pieces DaemonSets
 * share: the pod template and the conditions of a workload status (the label selector is apps-common's).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { int, intOrString, list, mergedList, obj, reqObj, reqStr, str, time } from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';
import { labelSelectorSchema } from '../apps-common/label-selector.js';
import { persistentVolumeClaimSchema } from '../persistentvolumeclaims/persistentvolumeclaims.schema.js';

/** A PodTemplateSpec: the pods a workload creates. */
export const podTemplate = obj({ metadata: strictObjectMeta, spec: podSpec.nullable().optional() });

/** The conditions of a workload status (`patchMergeKey=type`, `+listType=map`). */
export const workloadConditions = mergedList(
  reqObj({
    lastTransitionTime: time.describe('Last time the condition moved from one status to another.'),
    message: str.describe('A human readable message about the transition.'),
    reason: str.describe("The reason for the condition's last transition."),
    status: reqStr.describe('Status of the condition: True, False or Unknown.'),
    type: reqStr.describe('Type of the condition.'),
  }),
  { key: 'type' },
);

export const statefulSetSchema = kindSchema({
  spec: obj({
    minReadySeconds: int.describe(
      'Seconds a new pod must be ready, without any container crashing, to count as available (default 0).',
    ),
    ordinals: obj({
      start: int.describe('Index of the first replica (default 0): replicas are numbered start .. start+replicas-1.'),
    }).describe('How replica indices are numbered.'),
    persistentVolumeClaimRetentionPolicy: obj({
      whenDeleted: str.describe(
        'What happens to the claims when the StatefulSet is deleted: Retain (default) or Delete.',
      ),
      whenScaled: str.describe(
        'What happens to the claims of replicas removed by a scale-down: Retain (default) or Delete.',
      ),
    }).describe('What happens to the claims created from volumeClaimTemplates.'),
    podManagementPolicy: str.describe(
      'How pods are created and deleted: OrderedReady (default: one at a time, in order, each ready first) or Parallel.',
    ),
    replicas: int.describe('Number of replicas wanted (default 1).'),
    revisionHistoryLimit: int.describe('Number of old revisions kept in the revision history (default 10).'),
    selector: labelSelectorSchema.describe(
      "Label query over the pods counted as replicas. It must match the template's labels; it cannot change.",
    ),
    serviceName: str.describe(
      'Name of the headless service that governs the set; pods get the hostnames <pod>.<serviceName>.<namespace>.svc.',
    ),
    template: podTemplate.describe(
      'Pod created for each replica; each gets a unique identity. restartPolicy must be Always.',
    ),
    updateStrategy: obj({
      rollingUpdate: obj({
        maxUnavailable: intOrString.describe(
          'Most pods (a number or a percentage of replicas, rounded up, never 0) that may be unavailable during the update (default 1).',
        ),
        partition: int.describe(
          'Ordinal from which pods are updated; pods below it keep the old revision (default 0).',
        ),
      }).describe('Parameters of a RollingUpdate.'),
      type: str.describe('RollingUpdate (default in apps/v1 and apps/v1beta2) or OnDelete (default in apps/v1beta1).'),
    }).describe('How pods are replaced when the template changes.'),
    volumeClaimTemplates: list(persistentVolumeClaimSchema).describe(
      'Claims each pod gets, named <claim>-<pod>; a claim takes precedence over a template volume of the same name. Cannot change.',
    ),
  }),
  status: obj({
    availableReplicas: int.describe('Pods ready for at least minReadySeconds.'),
    collisionCount: int.describe('Hash collisions met when naming the newest ControllerRevision.'),
    conditions: workloadConditions.describe("Latest observations of the set's state."),
    currentReplicas: int.describe('Pods created from currentRevision.'),
    currentRevision: str.describe('Revision of the pods in [0, currentReplicas).'),
    observedGeneration: int.describe('Most recent generation the controller has acted on.'),
    readyReplicas: int.describe('Pods with a Ready condition.'),
    replicas: int.describe('Pods created by the controller.'),
    updateRevision: str.describe('Revision of the pods in [replicas-updatedReplicas, replicas).'),
    updatedReplicas: int.describe('Pods created from updateRevision.'),
  }),
});

/** A StatefulSet as its schema describes it (stored as apps/v1). */
export type StatefulSet = KindObject<typeof statefulSetSchema>;
export type StatefulSetSpec = NonNullable<StatefulSet['spec']>;

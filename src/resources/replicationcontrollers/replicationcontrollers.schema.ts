/** ReplicationController fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { atomic, int, mergedList, obj, reqObj, reqStr, str, strMap, time } from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';

export const replicationControllerSchema = kindSchema({
  spec: obj({
    minReadySeconds: int.describe(
      'Seconds a new pod must be ready, without any container crashing, to count as available (default 0).',
    ),
    replicas: int.describe('Number of pod copies wanted (default 1).'),
    selector: atomic(strMap).describe(
      "Label query over the pods counted as copies; defaults to the template's labels, which it must match.",
    ),
    template: obj({ metadata: strictObjectMeta, spec: podSpec.nullable().optional() }).describe(
      'Pod created when copies are missing; its labels must match the selector.',
    ),
  }),
  status: obj({
    availableReplicas: int.describe('Pods ready for at least minReadySeconds.'),
    conditions: mergedList(
      reqObj({ lastTransitionTime: time, message: str, reason: str, status: reqStr, type: reqStr }),
      { key: 'type' },
    ),
    fullyLabeledReplicas: int.describe("Pods whose labels match the template's labels."),
    observedGeneration: int.describe('Most recent generation the controller has acted on.'),
    readyReplicas: int.describe('Ready pods.'),
    replicas: int.describe('Most recently observed number of pods.'),
  }),
});

/** A ReplicationController as its schema describes it (for its strategy and printer). */
export type ReplicationController = KindObject<typeof replicationControllerSchema>;

/** ReplicationController fields. */
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { int, list, obj, reqObj, reqStr, str, strMap, time } from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';

export const replicationControllerSchema = kindSchema({
  spec: obj({
    minReadySeconds: int,
    replicas: int,
    selector: strMap,
    template: obj({ metadata: strictObjectMeta, spec: podSpec.nullable().optional() }),
  }),
  status: obj({
    availableReplicas: int,
    conditions: list(reqObj({ lastTransitionTime: time, message: str, reason: str, status: reqStr, type: reqStr })),
    fullyLabeledReplicas: int,
    observedGeneration: int,
    readyReplicas: int,
    replicas: int,
  }),
});

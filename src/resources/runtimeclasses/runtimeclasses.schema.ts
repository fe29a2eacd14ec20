/** RuntimeClass fields (k8s.io/api node/v1 types.go). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, obj, quantityMap, str, strMap } from '../../api/core/schema-kit.js';
import { podSpecShape } from '../../api/core/pod-spec.js';

export const runtimeClassSchema = kindSchema({
  handler: str.describe(
    'The container runtime configuration (CRI handler) that runs pods of this class: a DNS-1123 label. Immutable.',
  ),
  overhead: obj({
    podFixed: quantityMap.describe('Resources a pod of this class uses beyond its containers.'),
  }).describe('The resource overhead of running a pod of this class, added to its requests by admission.'),
  scheduling: obj({
    nodeSelector: atomic(strMap).describe(
      'Labels of the nodes that support this class; merged into the nodeSelector of its pods by admission.',
    ),
    tolerations: podSpecShape.tolerations.describe(
      'Tolerations appended (without duplicates) to the pods of this class by admission.',
    ),
  }).describe('Where pods of this class may run; unset: every node supports it.'),
});

/** A RuntimeClass as its schema describes it. */
export type RuntimeClass = KindObject<typeof runtimeClassSchema>;

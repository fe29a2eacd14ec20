/** Namespace fields (status.conditions added in 1.16). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { mergedList, obj, oneOf, reqObj, reqStr, str, strList, time } from '../../api/core/schema-kit.js';

export const namespaceSchema = kindSchema({
  spec: obj({ finalizers: strList }).describe(
    'Desired state of the Namespace: the finalizers that must run before it is removed.',
  ),
  status: obj({
    conditions: mergedList(
      reqObj({
        lastTransitionTime: time,
        message: str,
        reason: str,
        status: reqStr.describe('True, False or Unknown.'),
        type: reqStr.describe(
          'Type of the condition: NamespaceDeletionDiscoveryFailure, NamespaceDeletionContentFailure, NamespaceContentRemaining, ...',
        ),
      }),
      { key: 'type' },
    ).describe("Latest observations of the namespace's state, set while it is deleted."),
    phase: oneOf(['Active', 'Terminating']),
  }).describe('Observed state: Active, or Terminating while its content is being deleted.'),
});

/** A Namespace as its schema describes it (for its strategy, printer and NamespaceLifecycle admission). */
export type Namespace = KindObject<typeof namespaceSchema>;

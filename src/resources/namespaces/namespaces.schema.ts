/** Namespace fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { obj, oneOf, strList } from '../../api/core/schema-kit.js';

export const namespaceSchema = kindSchema({
  spec: obj({ finalizers: strList }).describe(
    'Desired state of the Namespace: the finalizers that must run before it is removed.',
  ),
  status: obj({ phase: oneOf(['Active', 'Terminating']) }).describe(
    'Observed state: Active, or Terminating while its content is being deleted.',
  ),
});

/** A Namespace as its schema describes it (for its strategy, printer and NamespaceLifecycle admission). */
export type Namespace = KindObject<typeof namespaceSchema>;

/** ServiceAccount fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, bool, list, localRef, mergedList, objectReference, reqObj } from '../../api/core/schema-kit.js';

export const serviceAccountSchema = kindSchema({
  automountServiceAccountToken: bool.describe(
    'Whether pods running as this account get an API token mounted automatically; a pod may override it.',
  ),
  imagePullSecrets: list(reqObj(localRef)).describe(
    'Secrets added to the imagePullSecrets of pods that use this account.',
  ),
  secrets: mergedList(atomic(reqObj(objectReference)), { key: 'name' }).describe(
    'Secrets pods running as this account may use.',
  ),
});

/** A ServiceAccount as its schema describes it. */
export type ServiceAccount = KindObject<typeof serviceAccountSchema>;

/** ServiceAccount fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { bool, list, localRef, objectReference, reqObj } from '../../api/core/schema-kit.js';

export const serviceAccountSchema = kindSchema({
  automountServiceAccountToken: bool,
  imagePullSecrets: list(reqObj(localRef)),
  secrets: list(reqObj(objectReference)),
});

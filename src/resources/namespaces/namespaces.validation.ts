/**
 * Namespace rules of upstream 1.10 pkg/apis/core/validation (ValidateNamespace,
 * validateFinalizerName, ValidateNamespaceStatusUpdate, ValidateNamespaceFinalizeUpdate).
 */
import { isDeepStrictEqual } from 'node:util';
import { validateQualifiedName } from '../../api/names.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import type { Namespace } from './namespaces.schema.js';

/** Finalizer names upstream knows without a domain (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

const finalizersOf = (o: Namespace): string[] => o.spec?.finalizers ?? [];

/**
 * Upstream validateFinalizerName: a qualified name (apimachinery ValidateFinalizerName) and,
 * without a domain, a standard one (validateKubeFinalizerName).
 */
export function validateFinalizerName(value: string, path: string): FieldError[] {
  const errs = validateQualifiedName(value).map((m) => invalidValue(path, value, m));
  if (!value.includes('/') && !STANDARD_FINALIZERS.has(value)) {
    errs.push(invalidValue(path, value, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

/** Upstream ValidateNamespace: each spec finalizer (reported at `spec.finalizers`, no index, as upstream). */
export function validateNamespace(obj: Namespace): FieldError[] {
  return finalizersOf(obj).flatMap((f) => validateFinalizerName(f, 'spec.finalizers'));
}

/**
 * Updates: the main resource keeps spec.finalizers and status (ValidateNamespaceUpdate checks
 * metadata only); a /finalize write checks each finalizer at `spec.finalizers[i]`
 * (ValidateNamespaceFinalizeUpdate); a /status write checks the phase against
 * deletionTimestamp (ValidateNamespaceStatusUpdate, field `status.Phase` as upstream).
 */
export function validateNamespaceUpdate(obj: Namespace, old: Namespace): FieldError[] {
  const errs: FieldError[] = [];
  if (!isDeepStrictEqual(finalizersOf(obj), finalizersOf(old))) {
    finalizersOf(obj).forEach((f, i) => errs.push(...validateFinalizerName(f, `spec.finalizers[${i}]`)));
  }
  if (!isDeepStrictEqual(obj.status, old.status)) {
    const phase = obj.status?.phase ?? '';
    if (!obj.metadata.deletionTimestamp) {
      if (phase !== 'Active')
        errs.push(invalidValue('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty"));
    } else if (phase !== 'Terminating') {
      errs.push(invalidValue('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
    }
  }
  return errs;
}

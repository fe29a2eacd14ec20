/**
 * PersistentVolumeClaim rules of upstream 1.10 pkg/apis/core/validation
 * (ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimSpec,
 * ValidatePersistentVolumeClaimUpdate), with the feature gates at their 1.10 defaults
 * (BlockVolume off), except ExpandPersistentVolumes, taken as on (its 1.11 default), so a bound
 * claim may grow.
 */
import { isDeepStrictEqual } from 'node:util';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { subdomainErrors, validateNonnegativeQuantity, quantityOfJson } from '../../api/validation/resources.js';
import { compareQuantities } from '../../api/quantity.js';
import { ACCESS_MODES } from '../persistentvolumes/persistentvolumes.validation.js';
import type { PersistentVolumeClaim } from './persistentvolumeclaims.schema.js';

type Spec = NonNullable<PersistentVolumeClaim['spec']>;
type Selector = NonNullable<Spec['selector']>;

const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** Upstream metav1 validation ValidateLabelSelector (requirements and matchLabels). */
function validateLabelSelector(selector: Selector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (selector.matchExpressions ?? []).forEach((req, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values: unknown[] = req.values ?? [];
    if (req.operator === 'In' || req.operator === 'NotIn') {
      if (!values.length) errs.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
      if (values.length)
        errs.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalidValue(`${at}.operator`, req.operator, 'not a valid selector operator'));
    }
    errs.push(...validateQualifiedName(String(req.key ?? '')).map((m) => invalidValue(`${at}.key`, req.key ?? '', m)));
  });
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    errs.push(...validateQualifiedName(k).map((m) => invalidValue(`${path}.matchLabels`, k, m)));
    errs.push(...validateLabelValue(String(v)).map((m) => invalidValue(`${path}.matchLabels`, v, m)));
  }
  return errs;
}

/**
 * Upstream ValidatePersistentVolumeClaimSpec: accessModes required and supported, a valid
 * selector, resources.requests.storage present and non-negative (reported at
 * `spec.resources[storage]` as upstream), storageClassName a DNS subdomain, no volumeMode.
 */
export function validatePersistentVolumeClaim(obj: PersistentVolumeClaim): FieldError[] {
  const spec: Spec = obj.spec ?? {};
  const errs: FieldError[] = [];
  const modes: string[] = spec.accessModes ?? [];
  if (!modes.length) errs.push(required('spec.accessModes', 'at least 1 access mode is required'));
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  for (const mode of modes)
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported('spec.accessModes', mode, ACCESS_MODES));
  const requests: Record<string, unknown> = spec.resources?.requests ?? {};
  if (!('storage' in requests)) errs.push(required('spec.resources[storage]'));
  else {
    const q = quantityOfJson(requests.storage);
    if (q) errs.push(...validateNonnegativeQuantity(q, 'spec.resources[storage]'));
  }
  if (spec.storageClassName) errs.push(...subdomainErrors(spec.storageClassName, 'spec.storageClassName'));
  if (spec.volumeMode !== undefined && spec.volumeMode !== null)
    errs.push(forbidden('spec.volumeMode', 'PersistentVolumeClaim volumeMode is disabled by feature-gate'));
  return errs;
}

/**
 * Upstream ValidatePersistentVolumeClaimUpdate with ExpandPersistentVolumes on: the object
 * rules, then the spec unchanged except volumeName set once (from empty), resources.requests
 * .storage of a bound claim (never below its previous value), and the beta storage-class
 * annotation upgraded to storageClassName; otherwise that annotation is immutable.
 */
export function validatePersistentVolumeClaimUpdate(
  obj: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): FieldError[] {
  const errs = validatePersistentVolumeClaim(obj);
  const next: Spec = structuredClone(obj.spec ?? {});
  const prev: Spec = structuredClone(old.spec ?? {});
  if (!prev.volumeName) prev.volumeName = next.volumeName;
  const oldAnn = old.metadata.annotations ?? {};
  const newAnn = obj.metadata.annotations ?? {};
  const upgrade =
    STORAGE_CLASS_ANNOTATION in oldAnn &&
    prev.storageClassName == null &&
    next.storageClassName != null &&
    next.storageClassName === oldAnn[STORAGE_CLASS_ANNOTATION] &&
    (!(STORAGE_CLASS_ANNOTATION in newAnn) || newAnn[STORAGE_CLASS_ANNOTATION] === oldAnn[STORAGE_CLASS_ANNOTATION]);
  if (upgrade) delete next.storageClassName;
  else if ((newAnn[STORAGE_CLASS_ANNOTATION] ?? '') !== (oldAnn[STORAGE_CLASS_ANNOTATION] ?? '')) {
    errs.push(
      invalidValue(
        `metadata.annotations.${STORAGE_CLASS_ANNOTATION}`,
        newAnn[STORAGE_CLASS_ANNOTATION] ?? '',
        'field is immutable',
      ),
    );
  }
  const bound = obj.status?.phase === 'Bound';
  // The old request is copied even when it has none (an undefined storage, dropped by `defined`).
  const requests: Record<string, unknown> | null | undefined = next.resources?.requests;
  if (bound && requests) requests.storage = prev.resources?.requests?.storage;
  // Go compares values: an empty volumeName is no volumeName, a null is an absent field.
  const defined = (s: Spec) =>
    JSON.parse(
      JSON.stringify({ ...s, volumeName: s.volumeName || undefined }, (_k, v) => (v === null ? undefined : v)),
    );
  if (!isDeepStrictEqual(defined(next), defined(prev)))
    errs.push(forbidden('spec', 'is immutable after creation except resources.requests for bound claims'));
  const size = (o: PersistentVolumeClaim) => quantityOfJson(o.spec?.resources?.requests?.storage ?? 0);
  const before = size(old);
  const after = size(obj);
  if (before && after && compareQuantities(after, before) < 0)
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than previous value'));
  return errs;
}

/**
 * PersistentVolumeClaim rules of upstream 1.33 pkg/apis/core/validation
 * (ValidatePersistentVolumeClaim, ValidatePersistentVolumeClaimSpec, validateDataSource(Ref),
 * ValidatePersistentVolumeClaimUpdate, ValidatePersistentVolumeClaimStatusUpdate) with 1.33's
 * default feature gates: RecoverVolumeExpansionFailure on (beta), AnyVolumeDataSource on (GA),
 * VolumeAttributesClass and CrossNamespaceVolumeDataSource off (their fields are dropped by the
 * strategy, see persistentvolumeclaim-fields.ts). Rows PVC33-* of docs/validation/core-today.md.
 */
import { isDeepStrictEqual } from 'node:util';
import { validateDns1123Subdomain, validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { subdomainErrors, quantityOfJson, validateResourceQuantityValue } from '../../api/validation/resources.js';
import { compareQuantities, quantityOf, wholeValue as wholeOf } from '../../api/quantity.js';
import {
  diffOf,
  immutable,
  validateAccessModes,
  validatePositiveQuantity,
} from '../persistentvolumes/persistentvolume-today.js';
import type { PersistentVolumeClaim } from './persistentvolumeclaims.schema.js';

type Spec = NonNullable<PersistentVolumeClaim['spec']>;
type Selector = NonNullable<Spec['selector']>;
type DataSourceRef = NonNullable<Spec['dataSourceRef']>;

const STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
const RESIZE_STATUSES = [
  'ControllerResizeInProgress',
  'ControllerResizeInfeasible',
  'NodeResizeInProgress',
  'NodeResizeInfeasible',
  'NodeResizePending',
];

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

/** Upstream validateDataSource / validateDataSourceRef (the namespace is dropped: gate off). */
function validateDataSource(ref: DataSourceRef, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(`${path}.name`));
  if (!ref.kind) errs.push(required(`${path}.kind`));
  const group = ref.apiGroup ?? '';
  if (!group && ref.kind !== 'PersistentVolumeClaim')
    errs.push(
      invalidValue(path, ref.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"),
    );
  if (group) errs.push(...validateDns1123Subdomain(group).map((m) => invalidValue(`${path}.apiGroup`, group, m)));
  return errs;
}

const present = <T>(v: T): v is NonNullable<T> => v !== undefined && v !== null;

/**
 * Upstream ValidatePersistentVolumeClaimSpec: access modes (ReadWriteOncePod alone), a valid
 * selector, a positive requests.storage (reported at `spec.resources[storage]` as upstream),
 * storageClassName a DNS subdomain, the data sources valid and dataSource equal to
 * dataSourceRef. volumeMode's values are the schema's.
 */
export function validatePersistentVolumeClaimSpec(spec: Spec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes: string[] = spec.accessModes ?? [];
  if (!modes.length) errs.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  errs.push(...validateAccessModes(modes, `${path}.accessModes`));
  const requests: Record<string, unknown> = spec.resources?.requests ?? {};
  const at = `${path}.resources[storage]`;
  if (!('storage' in requests)) errs.push(required(at));
  else {
    const q = quantityOfJson(requests.storage);
    const positive = q ? validatePositiveQuantity(q, at) : [];
    errs.push(...(positive.length ? positive : validateResourceQuantityValue('storage', requests.storage, at)));
  }
  if (spec.storageClassName) errs.push(...subdomainErrors(spec.storageClassName, `${path}.storageClassName`));
  if (present(spec.dataSource)) errs.push(...validateDataSource(spec.dataSource, `${path}.dataSource`));
  if (present(spec.dataSourceRef)) errs.push(...validateDataSource(spec.dataSourceRef, `${path}.dataSourceRef`));
  if (present(spec.dataSource) && present(spec.dataSourceRef)) {
    const a = spec.dataSource;
    const b = spec.dataSourceRef;
    if ((a.apiGroup ?? null) !== (b.apiGroup ?? null) || a.kind !== b.kind || a.name !== b.name) {
      errs.push({
        reason: 'FieldValueInvalid',
        field: path,
        message: `Invalid value: field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000000000)}: must match dataSourceRef`,
      });
    }
  }
  return errs;
}

/** Upstream ValidatePersistentVolumeClaim (the ObjectMeta rules are the store's). */
export function validatePersistentVolumeClaim(obj: PersistentVolumeClaim): FieldError[] {
  return validatePersistentVolumeClaimSpec(obj.spec ?? {}, 'spec');
}

/**
 * Upstream ValidatePersistentVolumeClaimUpdate (RecoverVolumeExpansionFailure on): the object
 * rules, then the spec unchanged except volumeName set once (from empty), requests.storage of
 * a bound claim, storageClassName set from nil (or from the beta annotation, which is
 * otherwise immutable); a request may shrink, but not to status.capacity or below; volumeMode
 * unchanged. A /status write (the status differs) is the status update's.
 */
export function validatePersistentVolumeClaimUpdate(
  obj: PersistentVolumeClaim,
  old: PersistentVolumeClaim,
): FieldError[] {
  if (!isDeepStrictEqual(obj.status, old.status)) return validatePersistentVolumeClaimStatusUpdate(obj);
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
  else {
    if ((newAnn[STORAGE_CLASS_ANNOTATION] ?? '') !== (oldAnn[STORAGE_CLASS_ANNOTATION] ?? '')) {
      errs.push(
        invalidValue(
          `metadata.annotations.${STORAGE_CLASS_ANNOTATION}`,
          newAnn[STORAGE_CLASS_ANNOTATION] ?? '',
          'field is immutable',
        ),
      );
    }
    // validateStorageClassUpgradeFromNil: a class may be set on a claim that had none.
    const fromNil =
      next.storageClassName != null &&
      prev.storageClassName == null &&
      (!(STORAGE_CLASS_ANNOTATION in oldAnn) || next.storageClassName === oldAnn[STORAGE_CLASS_ANNOTATION]);
    if (fromNil) prev.storageClassName = next.storageClassName;
  }
  const bound = obj.status?.phase === 'Bound';
  // The old request is copied even when it has none (an undefined storage, dropped by `defined`).
  const requests: Record<string, unknown> | null | undefined = next.resources?.requests;
  if (bound && requests) requests.storage = prev.resources?.requests?.storage;
  if (bound && next.volumeAttributesClassName != null) next.volumeAttributesClassName = prev.volumeAttributesClassName;
  // Go compares values: an empty volumeName is no volumeName, a null is an absent field.
  const defined = (s: Spec) =>
    JSON.parse(
      JSON.stringify({ ...s, volumeName: s.volumeName || undefined }, (_k, v) => (v === null ? undefined : v)),
    );
  if (!isDeepStrictEqual(defined(next), defined(prev))) {
    errs.push(
      forbidden(
        'spec',
        `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${diffOf(defined(prev), defined(next))}`,
      ),
    );
  }
  const size = (raw: unknown) => quantityOfJson(raw ?? 0) ?? quantityOf(0);
  const before = size(old.spec?.resources?.requests?.storage);
  const after = size(obj.spec?.resources?.requests?.storage);
  const capacity = size(old.status?.capacity?.storage);
  if (compareQuantities(after, before) < 0 && compareQuantities(after, capacity) <= 0)
    errs.push(forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  errs.push(...immutable('volumeMode', obj.spec?.volumeMode, old.spec?.volumeMode));
  return errs;
}

/** Upstream validatePersistentVolumeClaimResourceKey: a qualified name; a native one is storage. */
function resourceKey(value: string, path: string): FieldError[] {
  const errs = validateQualifiedName(value).map((m) => invalidValue(path, value, m));
  if (errs.length) return errs;
  const native = !value.includes('/') || value.includes('kubernetes.io/');
  return native && value !== 'storage' ? [notSupported(path, value, ['storage'])] : [];
}

/**
 * Upstream ValidatePersistentVolumeClaimStatusUpdate: access modes present (at `Spec.accessModes`
 * as upstream), capacity quantities not negative, and (RecoverVolumeExpansionFailure on) the
 * allocatedResourceStatuses keys and states and the allocatedResources keys and quantities.
 */
export function validatePersistentVolumeClaimStatusUpdate(obj: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  if (!obj.spec?.accessModes?.length) errs.push(required('Spec.accessModes'));
  const status = obj.status ?? {};
  for (const [r, raw] of Object.entries(status.capacity ?? {})) {
    const q = quantityOfJson(raw);
    const whole = q ? wholeOf(q) : 0n;
    if (whole < 0n) errs.push(invalidValue(`status.capacity[${r}]`, whole, 'must be a valid resource quantity'));
  }
  const statusPath = 'status.allocatedResourceStatus';
  for (const [k, v] of Object.entries(status.allocatedResourceStatuses ?? {})) {
    errs.push(...resourceKey(k, statusPath));
    if (!RESIZE_STATUSES.includes(String(v))) errs.push(notSupported(statusPath, k, RESIZE_STATUSES));
  }
  const allocPath = 'status.allocatedResources';
  for (const [r, raw] of Object.entries(status.allocatedResources ?? {})) {
    const keyErrs = resourceKey(r, allocPath);
    if (keyErrs.length) {
      errs.push(...keyErrs);
      continue;
    }
    const q = quantityOfJson(raw);
    const whole = q ? wholeOf(q) : 0n;
    if (whole < 0n) errs.push(invalidValue(`${allocPath}[${r}]`, whole, 'must be a valid resource quantity'));
    else errs.push(...validateResourceQuantityValue('storage', raw, `${allocPath}[${r}]`));
  }
  return errs;
}

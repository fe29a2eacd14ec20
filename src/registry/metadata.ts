/**
 * Common metadata rules, written once for every kind (upstream k8s.io/apiserver
 * pkg/registry/rest/create.go BeforeCreate, update.go BeforeUpdate and ObjectMeta validation).
 */
import { randomInt } from 'node:crypto';
import { randomUuid } from '../api/uuid.js';
import { rfc3339, type ApiObject } from '../api/object.js';
import {
  validateDns1123Subdomain,
  validateLabelValue,
  validatePathSegmentName,
  validateQualifiedName,
} from '../api/names.js';
import { badRequest } from '../errors/api-error.js';
import type { FieldError } from '../api/validation/field-errors.js';
import { tooLong } from '../api/validation/field-errors.js';
import { TOTAL_ANNOTATION_SIZE_LIMIT } from '../api/apply/last-applied.js';
import type { ResourceDefinition } from './types.js';

/** Upstream's generateName alphabet (k8s.io/apimachinery pkg/util/rand): no vowels, no 0/1/3. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `base[:58]` + 5 random characters (k8s.io/apiserver pkg/storage/names/generate.go). */
export function generateName(base: string): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return base.slice(0, 58) + suffix;
}

const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}: ${detail}`,
});

/** Drop empty lists and maps from ObjectMeta, as upstream's omitempty encoding never shows them. */
export function omitEmptyMeta(meta: ApiObject['metadata']): void {
  for (const f of ['finalizers', 'ownerReferences'] as const)
    if (Array.isArray(meta[f]) && meta[f]!.length === 0) delete meta[f];
  for (const f of ['labels', 'annotations'] as const) if (meta[f] && Object.keys(meta[f]!).length === 0) delete meta[f];
}

/** ObjectMeta problems common to every kind: name, labels, annotations (names, and 256 KiB in all). */
export function validateObjectMeta(def: ResourceDefinition, obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata;
  if (!meta.name) {
    errs.push({
      reason: 'FieldValueRequired',
      field: 'metadata.name',
      message: 'Required value: name or generateName is required',
    });
  } else {
    for (const m of [
      ...validatePathSegmentName(meta.name),
      ...(def.validateName ?? validateDns1123Subdomain)(meta.name),
    ])
      errs.push(invalidValue('metadata.name', meta.name, m));
  }
  if (def.namespaced && !meta.namespace) {
    errs.push({ reason: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' });
  }
  for (const [k, v] of Object.entries(meta.labels ?? {})) {
    for (const m of validateQualifiedName(k)) errs.push(invalidValue('metadata.labels', k, m));
    for (const m of validateLabelValue(v)) errs.push(invalidValue('metadata.labels', v, m));
  }
  let annotationBytes = 0;
  for (const [k, v] of Object.entries(meta.annotations ?? {})) {
    for (const m of validateQualifiedName(k.toLowerCase())) errs.push(invalidValue('metadata.annotations', k, m));
    annotationBytes += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  // Upstream ValidateAnnotationsSize: keys and values together, in bytes.
  if (annotationBytes > TOTAL_ANNOTATION_SIZE_LIMIT)
    errs.push(tooLong('metadata.annotations', '', TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

/**
 * Fill server-set metadata of a new object (uid, creationTimestamp, name from generateName)
 * and clear fields clients may not set. `namespace` is the request's namespace ('' for none).
 * Throws ApiError 400 when the object's namespace contradicts the request's.
 */
export function beforeCreate(def: ResourceDefinition, namespace: string, obj: ApiObject): void {
  const meta = obj.metadata;
  if (def.namespaced) {
    if (namespace && meta.namespace && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (namespace) meta.namespace = namespace;
  } else {
    delete meta.namespace;
  }
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  meta.uid = randomUuid();
  meta.creationTimestamp = rfc3339();
  omitEmptyMeta(meta);
  for (const f of [
    'selfLink',
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'clusterName',
  ] as const)
    delete meta[f];
}

/**
 * Carry over what an update may not change and report immutable-field violations
 * (upstream ValidateObjectMetaUpdate). Missing uid / creationTimestamp are repaired from `old`.
 */
export function beforeUpdate(def: ResourceDefinition, obj: ApiObject, old: ApiObject): FieldError[] {
  const meta = obj.metadata;
  const prev = old.metadata;
  const errs: FieldError[] = [];
  meta.uid ||= prev.uid;
  // Upstream decodes timestamps into time values: the same instant in another RFC 3339 form
  // (`+00:00`, as the Python client writes it) is no change.
  if (!meta.creationTimestamp || sameInstant(meta.creationTimestamp, prev.creationTimestamp))
    meta.creationTimestamp = prev.creationTimestamp;
  if (def.namespaced) meta.namespace ||= prev.namespace;
  else delete meta.namespace;
  for (const f of ['uid', 'creationTimestamp', 'namespace', 'name'] as const) {
    if ((meta[f] ?? '') !== (prev[f] ?? '')) errs.push(invalidValue(`metadata.${f}`, meta[f], 'field is immutable'));
  }
  meta.deletionTimestamp = prev.deletionTimestamp;
  meta.deletionGracePeriodSeconds = prev.deletionGracePeriodSeconds;
  if (meta.deletionTimestamp === undefined) delete meta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === undefined) delete meta.deletionGracePeriodSeconds;
  if (prev.generation !== undefined) meta.generation = prev.generation;
  if (prev.deletionTimestamp) {
    const added = (meta.finalizers ?? []).filter((f) => !(prev.finalizers ?? []).includes(f));
    if (added.length) {
      errs.push({
        reason: 'FieldValueForbidden',
        field: 'metadata.finalizers',
        message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
      });
    }
  }
  delete meta.selfLink;
  omitEmptyMeta(meta);
  return errs;
}

/** True when two RFC 3339 timestamps name the same second. */
function sameInstant(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isFinite(x) && Math.floor(x / 1000) === Math.floor(y / 1000);
}

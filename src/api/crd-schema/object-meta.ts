/**
 * ObjectMeta and TypeMeta of embedded resources (`x-kubernetes-embedded-resource: true`), as
 * upstream's apiextensions-apiserver pkg/apiserver/schema/objectmeta: coerce.go
 * (CoerceWithOptions: apiVersion/kind must be strings, metadata round-trips through ObjectMeta,
 * dropping unknown fields and empty ones) and validation.go (Validate: apiVersion and kind
 * required and well-formed, metadata validated as ObjectMeta). The resource root's own metadata
 * is the generic metadata rules' business, as upstream's strategy does it apart.
 */
import { checkSchema } from '../field-validation.js';
import { strictObjectMeta } from '../meta-schema.js';
import { validateDns1035Label, validateDns1123Label, validatePathSegmentName } from '../names.js';
import { annotationKeys, labels, nonNegative } from '../core/validation/strings.js';
import { required, type FieldError } from '../validation/field-errors.js';
import { fieldPath, goInvalid } from './go-format.js';
import type { Structural } from './types.js';

const utf8 = new TextEncoder();

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Options of {@link coerceEmbeddedResources}. */
export interface CoerceOptions {
  /** Drop fields of a wrong type instead of failing (upstream does so on reads from storage). */
  dropInvalidFields?: boolean;
  /** Collect unknown metadata fields (`spec.template.metadata.foo`) for fieldValidation. */
  returnUnknownFieldPaths?: boolean;
}

/** Result of {@link coerceEmbeddedResources}: the first problem (upstream stops there) and unknown paths. */
export interface CoerceResult {
  error?: FieldError;
  unknownFieldPaths: string[];
}

const jsonKind = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v;

/**
 * Round-trip `metadata` through ObjectMeta: unknown fields dropped (their paths returned),
 * empty fields dropped as Go's omitempty encoding does. A type problem gives Go's decoding
 * error text (`json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`).
 */
export function roundTripObjectMeta(metadata: unknown): {
  meta?: Record<string, unknown>;
  unknown: string[];
  error?: string;
} {
  if (metadata === null) return { meta: {}, unknown: [] };
  if (!isObject(metadata)) {
    return { unknown: [], error: `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta` };
  }
  const meta = JSON.parse(JSON.stringify(metadata)) as Record<string, unknown>;
  const check = checkSchema(strictObjectMeta, meta);
  if (check.errors.length > 0) {
    const field = check.errors[0].field.replace(/\[\d+\].*$/, '').split('.')[0];
    return {
      unknown: check.unknown,
      error: `json: cannot unmarshal ${jsonKind(meta[field])} into Go struct field ObjectMeta.${field} of type ${goTypeOf(field)}`,
    };
  }
  for (const [k, v] of Object.entries(meta)) {
    const empty =
      v === null ||
      v === '' ||
      (k === 'generation' && v === 0) ||
      (Array.isArray(v) && v.length === 0) ||
      (isObject(v) && Object.keys(v).length === 0);
    if (empty) delete meta[k];
  }
  return { meta, unknown: check.unknown };
}

const GO_TYPES: Record<string, string> = {
  labels: 'map[string]string',
  annotations: 'map[string]string',
  finalizers: '[]string',
  generation: 'int64',
  deletionGracePeriodSeconds: 'int64',
  creationTimestamp: 'v1.Time',
  deletionTimestamp: 'v1.Time',
  ownerReferences: '[]v1.OwnerReference',
  managedFields: '[]v1.ManagedFieldsEntry',
};
const goTypeOf = (field: string): string => GO_TYPES[field] ?? 'string';

/**
 * Coerce embedded resources under `obj` (not the root itself) in place: upstream
 * CoerceWithOptions(nil, obj, schema, isResourceRoot=false). Never throws.
 */
export function coerceEmbeddedResources(
  obj: unknown,
  schema: Structural | undefined,
  opts: CoerceOptions = {},
): CoerceResult {
  const unknown: string[] = [];
  const error = coerce('', obj, schema, opts, unknown);
  return { error, unknownFieldPaths: unknown.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

function coerce(
  pth: string,
  x: unknown,
  s: Structural | undefined,
  opts: CoerceOptions,
  unknown: string[],
): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerce(fieldPath.index(pth, i), x[i], s.items, opts, unknown);
      if (err) return err;
    }
    return undefined;
  }
  if (!isObject(x)) return undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s.extensions?.xEmbeddedResource) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') {
        if (opts.dropInvalidFields) delete x[k];
        else return goInvalid(fieldPath.child(pth, k), v, 'must be a string');
      } else if (k === 'metadata') {
        const rt = roundTripObjectMeta(v);
        if (opts.returnUnknownFieldPaths)
          unknown.push(...rt.unknown.map((u) => `${fieldPath.child(pth, 'metadata')}.${u}`));
        if (rt.error) {
          if (!opts.dropInvalidFields) return goInvalid(fieldPath.child(pth, 'metadata'), v, rt.error);
        } else x[k] = rt.meta;
      }
    }
    const prop = s.properties?.[k];
    const additional = s.generic?.additionalProperties;
    let err: FieldError | undefined;
    if (prop) err = coerce(fieldPath.child(pth, k), x[k], prop, opts, unknown);
    else if (additional) err = coerce(fieldPath.key(pth, k), x[k], additional.structural, opts, unknown);
    if (err) return err;
  }
  return undefined;
}

/**
 * Validate the TypeMeta and ObjectMeta of embedded resources under `obj` (upstream
 * objectmeta.Validate(nil, obj, schema, false)): `apiVersion` and `kind` required, non-empty,
 * a valid group/version and a DNS-1035 label in any case; metadata as ObjectMeta (name and
 * generateName as path segments, namespace a DNS-1123 label, labels, annotation keys,
 * generation). Not checked here: finalizers, ownerReferences and managedFields rules.
 */
export function validateEmbeddedResources(obj: unknown, schema: Structural | undefined, pth = ''): FieldError[] {
  if (!schema) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(obj)) {
    obj.forEach((v, i) => errs.push(...validateEmbeddedResources(v, schema.items, fieldPath.index(pth, i))));
    return errs;
  }
  if (!isObject(obj)) return errs;
  if (schema.extensions?.xEmbeddedResource) errs.push(...validateEmbedded(pth, obj));
  for (const [k, v] of Object.entries(obj)) {
    const prop = schema.properties?.[k];
    const additional = schema.generic?.additionalProperties;
    if (prop) errs.push(...validateEmbeddedResources(v, prop, fieldPath.child(pth, k)));
    else if (additional) errs.push(...validateEmbeddedResources(v, additional.structural, fieldPath.key(pth, k)));
  }
  return errs;
}

function validateEmbedded(pth: string, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const at = (k: string) => fieldPath.child(pth, k);
  if (!('apiVersion' in x)) errs.push(required(at('apiVersion')));
  if (!('kind' in x)) errs.push(required(at('kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(goInvalid(at(k), v, 'must be a string'));
      else if (v.length === 0) errs.push(goInvalid(at(k), v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(goInvalid(at(k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(goInvalid(at(k), v, 'must be a string'));
      else if (v.length === 0) errs.push(goInvalid(at(k), v, 'must not be empty'));
      else {
        const msgs = validateDns1035Label(v.toLowerCase());
        if (msgs.length)
          errs.push(goInvalid(at(k), v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
      }
    } else if (k === 'metadata') {
      const rt = roundTripObjectMeta(v);
      if (rt.error) errs.push(goInvalid(at(k), v, rt.error));
      else errs.push(...validateMeta(rt.meta ?? {}, at(k)));
    }
  }
  return errs;
}

function validateMeta(meta: Record<string, unknown>, pth: string): FieldError[] {
  const errs: FieldError[] = [];
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const generateName = str(meta.generateName);
  if (generateName) {
    for (const m of validatePathSegmentName(generateName)) errs.push(goInvalid(`${pth}.generateName`, generateName, m));
  }
  // Upstream sets a placeholder name when none is given.
  const name = str(meta.name) || 'fakename';
  for (const m of validatePathSegmentName(name)) errs.push(goInvalid(`${pth}.name`, name, m));
  const ns = str(meta.namespace);
  if (ns) for (const m of validateDns1123Label(ns)) errs.push(goInvalid(`${pth}.namespace`, ns, m));
  errs.push(...nonNegative(meta.generation, `${pth}.generation`));
  errs.push(...labels(meta.labels, `${pth}.labels`));
  errs.push(...annotationKeys(meta.annotations, `${pth}.annotations`));
  let size = 0;
  for (const [k, v] of Object.entries(isObject(meta.annotations) ? meta.annotations : {})) {
    size += utf8.encode(k).length + utf8.encode(String(v)).length;
  }
  if (size > 256 * 1024) {
    errs.push({
      reason: 'FieldValueTooLong',
      field: `${pth}.annotations`,
      message: 'Too long: may not be more than 262144 bytes',
    });
  }
  return errs;
}

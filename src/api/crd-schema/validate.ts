/**
 * Validation of a custom object against its CRD version's schema, as upstream's custom-resource
 * strategy does it (apiextensions-apiserver pkg/registry/customresource/strategy.go Validate and
 * ValidateUpdate): the OpenAPI schema (pkg/apiserver/validation/validation.go
 * ValidateCustomResource / ValidateCustomResourceUpdate with ratcheting), then embedded
 * resources' TypeMeta and ObjectMeta (schema/objectmeta/validation.go), then list set/map
 * uniqueness (schema/listtype; on update only when the old object had none), then the node
 * validators a caller plugs in (the seam where `x-kubernetes-validations` CEL rules go). The
 * root's metadata and TypeMeta are validated elsewhere, as upstream's strategy does.
 */
import type { FieldError } from '../validation/field-errors.js';
import { validateListSetsAndMaps } from './listtype.js';
import { validateEmbeddedResources } from './object-meta.js';
import { toFieldErrors } from './openapi-result.js';
import { validateSchema } from './openapi-validator.js';
import { toStructural } from './structural.js';
import { fieldPath } from './go-format.js';
import type { JSONSchemaProps, Structural } from './types.js';

/** One value of the object with its structural schema, as a node validator sees it. */
export interface SchemaNode {
  /** Field path as upstream prints it (`spec.items[0].name`, map keys as `spec.labels[key]`). */
  path: string;
  value: unknown;
  schema: Structural;
  /** The correlated old value on update (same path in the old object), when there is one. */
  oldValue?: unknown;
  hasOldValue: boolean;
}

/** A validator called for every node that has a schema (e.g. CEL `x-kubernetes-validations`). */
export type NodeValidator = (node: SchemaNode) => FieldError[];

/** Options of {@link validateCustomObject}. */
export interface ValidateOptions {
  /** The object is a whole resource (upstream passes the nil path): the default. */
  root?: boolean;
  /** Path of the validated value inside the resource (upstream's `status` for /status updates). */
  fieldPath?: string;
  /** The stored object on update: unchanged invalid values are ratcheted (1.33, GA). */
  oldObj?: unknown;
  /** The structural form of `schema`, when the caller has it (computed otherwise). */
  structural?: Structural;
  /** Extra per-node validators, run last (the CEL hook). */
  nodeValidators?: readonly NodeValidator[];
}

const structuralCache = new WeakMap<JSONSchemaProps, Structural | undefined>();

/**
 * Validate `obj` (a decoded custom object, already pruned and defaulted) against `schema` (the
 * version's `openAPIV3Schema`). Returns the 422 causes in upstream's words, e.g.
 * `spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10`,
 * `spec.a: Required value`, `spec.e: Unsupported value: "z": supported values: "a", "b"`,
 * `spec.tags[1]: Duplicate value: "x"`. Never throws; an invalid `schema` (one `toStructural`
 * refuses) validates by its OpenAPI keywords only.
 */
export function validateCustomObject(obj: unknown, schema: JSONSchemaProps, opts: ValidateOptions = {}): FieldError[] {
  const prefix = opts.fieldPath ?? '';
  const structural = opts.structural ?? structuralOf(schema);
  const hasOld = opts.oldObj !== undefined;
  const result = validateSchema(schema, '', obj, hasOld ? { value: opts.oldObj } : undefined);
  const errs = toFieldErrors(result, prefix);
  if (structural) {
    errs.push(...validateEmbeddedResources(obj, structural, prefix));
    if (!hasOld || validateListSetsAndMaps(prefix, structural, opts.oldObj).length === 0) {
      errs.push(...validateListSetsAndMaps(prefix, structural, obj));
    }
    for (const v of opts.nodeValidators ?? []) {
      visitNodes(obj, structural, prefix, hasOld, opts.oldObj, (node) => errs.push(...v(node)));
    }
  }
  return errs;
}

function structuralOf(schema: JSONSchemaProps): Structural | undefined {
  if (!structuralCache.has(schema)) {
    let s: Structural | undefined;
    try {
      s = toStructural(schema);
    } catch {
      s = undefined;
    }
    structuralCache.set(schema, s);
  }
  return structuralCache.get(schema);
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/**
 * Visit every value of `value` that has a schema, depth first, with its correlated old value
 * (object fields by name, `x-kubernetes-list-type: map` items by key; other list items have none).
 */
export function visitNodes(
  value: unknown,
  schema: Structural,
  path: string,
  hasOld: boolean,
  oldValue: unknown,
  visit: (node: SchemaNode) => void,
): void {
  visit({ path, value, schema, oldValue: hasOld ? oldValue : undefined, hasOldValue: hasOld });
  if (Array.isArray(value) && schema.items) {
    const keys = schema.extensions?.xListType === 'map' ? (schema.extensions.xListMapKeys ?? []) : undefined;
    const oldList = hasOld && Array.isArray(oldValue) ? oldValue : [];
    value.forEach((item, i) => {
      const match = keys
        ? oldList.find(
            (o) => isObject(o) && isObject(item) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])),
          )
        : undefined;
      visitNodes(item, schema.items!, fieldPath.index(path, i), match !== undefined, match, visit);
    });
  } else if (isObject(value)) {
    const oldMap = hasOld && isObject(oldValue) ? oldValue : undefined;
    for (const [k, v] of Object.entries(value)) {
      const prop = schema.properties?.[k];
      const additional = schema.generic?.additionalProperties?.structural;
      const sub = prop ?? additional;
      if (!sub) continue;
      const p = prop ? fieldPath.child(path, k) : fieldPath.key(path, k);
      visitNodes(v, sub, p, oldMap !== undefined && k in oldMap, oldMap?.[k], visit);
    }
  }
}

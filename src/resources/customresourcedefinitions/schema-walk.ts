/**
 * Reading JSONSchemaProps as upstream's Go structs see them, and the recursive predicates of
 * k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go (1.33):
 * SchemaHas (every nested schema: items, allOf/anyOf/oneOf/not, properties,
 * additionalProperties, patternProperties, additionalItems, definitions, dependencies),
 * HasSchemaWith over a spec, and the predicates that decide which rules an update must meet
 * (defaults, Kubernetes extensions, invalid types, non-atomic set items).
 */
import { isSchemaObject, type JSONSchemaProps } from './json-schema-props.js';
import type { InternalSpec } from './internal.js';

/** The OpenAPI v3 types a schema may name (openapiV3Types). */
export const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/** `items` when it is one schema (JSONSchemaPropsOrArray.Schema). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isSchemaObject(s.items) ? s.items : undefined;
}

/** `items` when it is a list of schemas (JSONSchemaPropsOrArray.JSONSchemas). */
export function itemsSchemas(s: JSONSchemaProps): JSONSchemaProps[] {
  return Array.isArray(s.items) ? s.items : [];
}

/** The schema of `additionalProperties` (or `additionalItems`), when it is one. */
export function orBoolSchema(v: JSONSchemaProps | boolean | null | undefined): JSONSchemaProps | undefined {
  return isSchemaObject(v) ? v : undefined;
}

/** Whether `additionalProperties` (or `additionalItems`) is set at all (a non-nil JSONSchemaPropsOrBool). */
export function orBoolSet(v: JSONSchemaProps | boolean | null | undefined): boolean {
  return v !== undefined && v !== null;
}

/** JSONSchemaPropsOrBool.Allows: true for `true` and for a schema. */
export function orBoolAllows(v: JSONSchemaProps | boolean | null | undefined): boolean {
  return v === true || isSchemaObject(v);
}

/** The entries of a map of schemas (properties, patternProperties, definitions), in key order. */
export function schemaEntries(m: Record<string, JSONSchemaProps> | null | undefined): [string, JSONSchemaProps][] {
  return Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A list field that Go would see as empty when absent or null. */
export function listOf<T>(v: T[] | null | undefined): T[] {
  return Array.isArray(v) ? v : [];
}

/** Whether `default` is set (a non-nil *JSON; a JSON null counts, as upstream's pointer). */
export function hasDefault(s: JSONSchemaProps): boolean {
  return Object.hasOwn(s, 'default') && s.default !== undefined;
}

/** Every schema nested directly in `s`. */
function children(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  const one = itemsSchema(s);
  if (one) out.push(one);
  out.push(...itemsSchemas(s), ...listOf(s.allOf), ...listOf(s.anyOf), ...listOf(s.oneOf));
  if (isSchemaObject(s.not)) out.push(s.not);
  out.push(...Object.values(s.properties ?? {}));
  const additional = orBoolSchema(s.additionalProperties);
  if (additional) out.push(additional);
  out.push(...Object.values(s.patternProperties ?? {}));
  const additionalItems = orBoolSchema(s.additionalItems);
  if (additionalItems) out.push(additionalItems);
  out.push(...Object.values(s.definitions ?? {}));
  for (const d of Object.values(s.dependencies ?? {})) if (isSchemaObject(d)) out.push(d as JSONSchemaProps);
  return out.filter(isSchemaObject);
}

/** SchemaHas: whether `pred` holds for `s` or any schema nested in it. */
export function schemaHas(s: JSONSchemaProps | null | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!isSchemaObject(s)) return false;
  return pred(s) || children(s).some((c) => schemaHas(c, pred));
}

/** HasSchemaWith: whether the top-level schema or any version's satisfies `pred`. */
export function hasSchemaWith(spec: InternalSpec, pred: (s: JSONSchemaProps) => boolean): boolean {
  const top = spec.validation?.openAPIV3Schema;
  if (top && pred(top)) return true;
  return spec.versions.some((v) => {
    const s = v.schema?.openAPIV3Schema;
    return !!s && pred(s);
  });
}

/** schemaHasDefaults. */
export const schemaHasDefaults = (s: JSONSchemaProps) => schemaHas(s, hasDefault);

/** schemaHasKubernetesExtensions: any x-kubernetes-* field that needs a structural schema. */
export const schemaHasKubernetesExtensions = (s: JSONSchemaProps) =>
  schemaHas(
    s,
    (n) =>
      !!n['x-kubernetes-embedded-resource'] ||
      (n['x-kubernetes-preserve-unknown-fields'] ?? null) !== null ||
      !!n['x-kubernetes-int-or-string'] ||
      listOf(n['x-kubernetes-list-map-keys']).length > 0 ||
      (n['x-kubernetes-list-type'] ?? null) !== null ||
      listOf(n['x-kubernetes-validations']).length > 0,
  );

/** SchemaHasInvalidTypes: a `type` that is not an OpenAPI v3 type. */
export const schemaHasInvalidTypes = (s: JSONSchemaProps) =>
  schemaHas(s, (n) => !!n.type && !OPENAPI_V3_TYPES.includes(n.type));

/** hasNonAtomicSetType: a `set` list whose items are neither scalars nor atomic. */
export const hasNonAtomicSetType = (s: JSONSchemaProps) =>
  schemaHas(s, (n) => {
    const is = itemsSchema(n);
    if (n['x-kubernetes-list-type'] !== 'set' || !is) return false;
    if (is.type === 'array')
      return (is['x-kubernetes-list-type'] ?? null) !== null && is['x-kubernetes-list-type'] !== 'atomic';
    if (is.type === 'object') return is['x-kubernetes-map-type'] !== 'atomic';
    return false;
  });

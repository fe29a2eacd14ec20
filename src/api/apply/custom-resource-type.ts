/**
 * The type server-side apply converts a custom object to, from its version's schema, as
 * upstream 1.33 builds it: apiextensions-apiserver crdHandler (buildOpenAPIModelsForApply,
 * NewTypeConverter with the definition's `preserveUnknownFields`), controller/openapi/builder
 * buildKubeNative (the root gets `apiVersion`, `kind` and `metadata` as ObjectMeta;
 * addEmbeddedProperties gives every `x-kubernetes-embedded-resource` node the same three) and
 * kube-openapi pkg/schemaconv openapi.go (parseObject, parseList, visitSpec):
 *
 * - `x-kubernetes-preserve-unknown-fields: true` opens the node and every node inlined below
 *   it; ObjectMeta is a named type and stays closed;
 * - an object without `additionalProperties` admits any key when it declares no properties (a
 *   free-form object) or is open, and only its properties otherwise; `additionalProperties`
 *   gives the type of other keys (`true`: anything, `false`: none);
 * - a node without `type` (`x-kubernetes-int-or-string`, preserved nodes) may be a scalar, a
 *   list or a map; a list without `items` holds anything;
 * - no schema, or a definition with `preserveUnknownFields: true`, admits anything.
 *
 * Pure; no I/O.
 */
import type { JSONSchemaProps } from '../crd-schema/types.js';
import { strictObjectMeta } from '../meta-schema.js';
import { DEDUCED, SCALAR, schemaTypeOfZod, type MapType, type SchemaType } from './schema-type.js';

/** ObjectMeta (meta/v1) as apply types it: this server's ObjectMeta schema. */
export const OBJECT_META_TYPE: SchemaType = schemaTypeOfZod(strictObjectMeta);

/** Nesting beyond any real schema: below it everything is admitted (this only bounds work). */
const MAX_DEPTH = 64;

/**
 * The apply type of a custom resource version whose `openAPIV3Schema` is `schema` (already
 * accepted by CRD validation), for a definition with `preserveUnknownFields` as given.
 */
export function customResourceApplyType(
  schema: JSONSchemaProps | null | undefined,
  preserveUnknownFields: boolean,
): SchemaType {
  if (preserveUnknownFields || !schema) return DEDUCED;
  return nodeType(schema, false, 0, true);
}

function nodeType(s: JSONSchemaProps, preserve: boolean, depth: number, root = false): SchemaType {
  if (depth > MAX_DEPTH) return DEDUCED;
  const open = preserve || s['x-kubernetes-preserve-unknown-fields'] === true;
  switch (s.type ?? '') {
    case 'object':
      return { map: mapType(s, open, depth, root) };
    case 'array':
      return { list: itemsType(s, open, depth) };
    case '':
      return { scalar: true, list: itemsType(s, open, depth), map: mapType(s, open, depth, root) };
    default:
      return SCALAR;
  }
}

function mapType(s: JSONSchemaProps, open: boolean, depth: number, root: boolean): MapType {
  const fields: Record<string, SchemaType> = {};
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    if (child && typeof child === 'object') fields[name] = nodeType(child, open, depth + 1);
  }
  if (root || s['x-kubernetes-embedded-resource'] === true) {
    fields.apiVersion = SCALAR;
    fields.kind = SCALAR;
    fields.metadata = OBJECT_META_TYPE;
  }
  const additional = s.additionalProperties;
  let values: SchemaType | undefined;
  if (additional === undefined || additional === null) {
    values = open || Object.keys(fields).length === 0 ? DEDUCED : undefined;
  } else if (typeof additional === 'object') {
    values = nodeType(additional, open, depth + 1);
  } else {
    values = additional ? DEDUCED : undefined;
  }
  return values ? { fields, values } : { fields };
}

function itemsType(s: JSONSchemaProps, open: boolean, depth: number): SchemaType {
  const items = s.items;
  if (items && typeof items === 'object' && !Array.isArray(items)) return nodeType(items, open, depth + 1);
  return DEDUCED;
}

/**
 * Server-side apply's merge facts of a custom resource version, from its schema (upstream
 * structured-merge-diff reads them from the CRD's OpenAPI schema): `x-kubernetes-list-type`
 * (`atomic`, `set`, `map` with `x-kubernetes-list-map-keys`) and `x-kubernetes-map-type`
 * (`atomic`, `granular`) on each node, through `properties`, `items` and
 * `additionalProperties`. Lists that declare nothing are atomic, as upstream's default.
 * Strategic merge patch is not served for custom resources, so no merge keys are derived.
 */
import type { PatchMeta } from '../../api/core/patch-meta.js';
import type { JSONSchemaProps } from '../../api/crd-schema/types.js';

/** The patch metadata tree of `schema` (a version's openAPIV3Schema); {} when it declares nothing. */
export function patchMetaFromSchema(schema: JSONSchemaProps | null | undefined): PatchMeta {
  return (schema && derive(schema, 0)) ?? {};
}

/** Depth bound: schemas nest far less; a cycle cannot occur in JSON, so this only bounds work. */
const MAX_DEPTH = 64;

function derive(s: JSONSchemaProps, depth: number): PatchMeta | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const node: { -readonly [K in keyof PatchMeta]: PatchMeta[K] } = {};
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'atomic' || listType === 'set' || listType === 'map') node.listType = listType;
  const keys = s['x-kubernetes-list-map-keys'];
  if (listType === 'map' && Array.isArray(keys) && keys.length) node.listMapKeys = [...keys];
  const mapType = s['x-kubernetes-map-type'];
  if (mapType === 'atomic' || mapType === 'granular') node.mapType = mapType;
  const fields: Record<string, PatchMeta> = {};
  for (const [name, child] of Object.entries(s.properties ?? {})) {
    const meta = child && derive(child, depth + 1);
    if (meta) fields[name] = meta;
  }
  if (Object.keys(fields).length) node.fields = fields;
  const items = Array.isArray(s.items) ? undefined : s.items;
  const additional = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  const inner = (items ?? additional) && derive((items ?? additional)!, depth + 1);
  if (inner) node.items = inner;
  return Object.keys(node).length ? node : undefined;
}

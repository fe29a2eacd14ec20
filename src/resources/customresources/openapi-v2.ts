/**
 * A custom resource version's schema as OpenAPI v2 publishes it (upstream apiextensions-apiserver
 * pkg/controller/openapi/builder buildKubeNative with Options.V2, and v2/conversion.go
 * ToStructuralOpenAPIV2, 1.33): kubectl's v2 readers cannot cope with some of OpenAPI v3, so
 * - a root that preserves unknown fields is published as a bare `type: object` (no properties,
 *   not even apiVersion, kind and metadata, which would make kubectl refuse unknown fields);
 * - elsewhere `allOf`, `oneOf`, `anyOf` and `not` are dropped; a `nullable` node loses its
 *   type, items and properties; a node preserving unknown fields loses its items and properties
 *   (and its type when it is `object`); an array left without items loses its type; a nullable
 *   property is no longer required (any when additionalProperties are nullable).
 * Pure: returns a new schema.
 */

type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `published` (the version's Swagger schema: its openAPIV3Schema with apiVersion, kind and
 * metadata added and `x-kubernetes-*` extensions) as v2 publishes it. The root's extensions
 * (`x-kubernetes-group-version-kind`, selectable fields) are kept in either form.
 */
export function customResourceSwaggerSchema(published: Schema): Schema {
  if (published['x-kubernetes-preserve-unknown-fields'] === true) {
    const bare: Schema = { type: 'object' };
    for (const [k, v] of Object.entries(published))
      if (k.startsWith('x-') && k !== 'x-kubernetes-preserve-unknown-fields') bare[k] = v;
    return bare;
  }
  return structuralV2(published);
}

const JUNCTORS = ['allOf', 'oneOf', 'anyOf', 'not'];

function structuralV2(node: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(node)) if (!JUNCTORS.includes(k)) out[k] = v;
  if (isSchema(out.properties))
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([k, v]) => [k, isSchema(v) ? structuralV2(v) : v]),
    );
  if (isSchema(out.items)) out.items = structuralV2(out.items);
  if (isSchema(out.additionalProperties)) out.additionalProperties = structuralV2(out.additionalProperties);

  if (out.nullable === true) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  const preserves = out['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserves) {
    delete out.items;
    delete out.properties;
  }
  if (out.items === undefined && out.type === 'array') delete out.type;
  if (preserves && out.type === 'object') delete out.type;

  const required = Array.isArray(node.required) ? (node.required as unknown[]) : undefined;
  if (required) {
    const nullableAdditional = isSchema(node.additionalProperties) && node.additionalProperties.nullable === true;
    // Upstream filters over the properties left after the rules above (children not yet visited).
    const props = isSchema(node.properties) && out.properties !== undefined ? node.properties : {};
    const kept = nullableAdditional
      ? []
      : required.filter((name) => {
          const prop = props[String(name)];
          return !(isSchema(prop) && prop.nullable === true);
        });
    if (kept.length) out.required = kept;
    else delete out.required;
  }
  return out;
}

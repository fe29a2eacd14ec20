/**
 * `toStructural`: a CRD version's `openAPIV3Schema` reduced to the structural form the server
 * prunes and defaults by, as upstream's NewStructural does (apiextensions-apiserver
 * pkg/apiserver/schema/convert.go). `externalDocs` and `example` are not kept.
 */
import type {
  Extensions,
  Generic,
  JSONSchemaProps,
  NestedValueValidation,
  Structural,
  ValueValidation,
} from './types.js';

/**
 * Convert `props` (a JSONSchemaProps as JSON) to a Structural schema; undefined for none.
 * Throws an Error with upstream's message when `props` uses what CRD validation rejects
 * (`OpenAPIV3Schema 'id' is not supported`, `'items' must be a schema, but is an array`, ...) or
 * sets `x-kubernetes-preserve-unknown-fields: false`.
 */
export function toStructural(props: JSONSchemaProps | undefined | null): Structural | undefined {
  if (!props) return undefined;
  rejectUnsupported(props);
  const out: Structural = {
    generic: generic(props),
    extensions: extensions(props),
    valueValidation: valueValidation(props),
  };
  if (props.items !== undefined && props.items !== null) {
    if (Array.isArray(props.items)) throw new Error("OpenAPIV3Schema 'items' must be a schema, but is an array");
    out.items = toStructural(props.items);
  }
  if (props.properties && Object.keys(props.properties).length > 0) {
    out.properties = {};
    for (const [k, v] of Object.entries(props.properties)) out.properties[k] = toStructural(v) ?? {};
  }
  return out;
}

function generic(s: JSONSchemaProps): Generic {
  const g: Generic = {};
  if (s.type) g.type = s.type;
  if (s.description) g.description = s.description;
  if (s.title) g.title = s.title;
  if (s.nullable) g.nullable = true;
  // A null default is Go's nil JSON: no default.
  if (s.default !== undefined && s.default !== null) g.default = s.default;
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    g.additionalProperties = typeof ap === 'boolean' ? { bool: ap } : { structural: toStructural(ap), bool: true };
  }
  return g;
}

function extensions(s: JSONSchemaProps): Extensions {
  const x: Extensions = {};
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  if (preserve === false) {
    throw new Error("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  }
  if (preserve === true) x.xPreserveUnknownFields = true;
  if (s['x-kubernetes-embedded-resource']) x.xEmbeddedResource = true;
  if (s['x-kubernetes-int-or-string']) x.xIntOrString = true;
  if (s['x-kubernetes-list-map-keys']) x.xListMapKeys = [...s['x-kubernetes-list-map-keys']];
  if (s['x-kubernetes-list-type'] !== undefined) x.xListType = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-map-type'] !== undefined) x.xMapType = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-validations']) x.xValidations = s['x-kubernetes-validations'].map((r) => ({ ...r }));
  return x;
}

const VALUE_KEYS = [
  'format',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'required',
] as const;

function valueValidation(s: JSONSchemaProps): ValueValidation {
  const v: Record<string, unknown> = {};
  for (const k of VALUE_KEYS) {
    const val = s[k];
    if (val !== undefined && val !== null && val !== '' && val !== false) v[k] = val;
  }
  if (s.enum) v.enum = [...s.enum];
  const vv = v as ValueValidation;
  if (s.not) vv.not = nested(s.not);
  if (s.allOf) vv.allOf = s.allOf.map(nested);
  if (s.anyOf) vv.anyOf = s.anyOf.map(nested);
  if (s.oneOf) vv.oneOf = s.oneOf.map(nested);
  return vv;
}

function nested(s: JSONSchemaProps): NestedValueValidation {
  rejectUnsupported(s);
  const out: NestedValueValidation = {
    ...valueValidation(s),
    forbiddenGenerics: generic(s),
    forbiddenExtensions: extensions(s),
  };
  if (s.items !== undefined && s.items !== null) {
    if (Array.isArray(s.items)) throw new Error("OpenAPIV3Schema 'items' must be a schema, but is an array");
    out.items = nested(s.items);
  }
  if (s.properties) {
    out.properties = {};
    for (const [k, v] of Object.entries(s.properties)) out.properties[k] = nested(v);
  }
  return out;
}

/** Upstream validateUnsupportedFields: what CRD validation rejects must be unset. */
function rejectUnsupported(s: JSONSchemaProps): void {
  if (s.id) throw new Error("OpenAPIV3Schema 'id' is not supported");
  if (s.$schema) throw new Error("OpenAPIV3Schema 'schema' is not supported");
  if (s.$ref) throw new Error("OpenAPIV3Schema '$ref' is not supported");
  if (s.patternProperties && Object.keys(s.patternProperties).length > 0) {
    throw new Error("OpenAPIV3Schema 'patternProperties' is not supported");
  }
  if (s.dependencies && Object.keys(s.dependencies).length > 0) {
    throw new Error("OpenAPIV3Schema 'dependencies' is not supported");
  }
  if (s.additionalItems !== undefined && s.additionalItems !== null) {
    throw new Error("OpenAPIV3Schema 'additionalItems' is not supported");
  }
  if (s.definitions && Object.keys(s.definitions).length > 0) {
    throw new Error("OpenAPIV3Schema 'definitions' is not supported");
  }
}

/**
 * The structural view of a CRD schema that the definition's own validation needs
 * (k8s.io/apiextensions-apiserver pkg/apiserver/schema structural.go and convert.go
 * NewStructural, 1.33): the generic fields (type, description, title, nullable, default), the
 * x-kubernetes extensions and the value validations, with logical junctors (allOf, anyOf, oneOf,
 * not) kept as nested value validations whose generic fields and extensions are "forbidden"
 * (must be empty to be structural). NewStructural refuses what it cannot represent with
 * upstream's error texts. Plain data; pure.
 */
import { isSchemaObject, type JSONSchemaProps, type ValidationRule } from './json-schema-props.js';
import { hasDefault, itemsSchemas, listOf, orBoolAllows, orBoolSchema, orBoolSet } from './schema-walk.js';

/** Generic fields (schema.Generic). */
export interface Generic {
  type: string;
  description: string;
  title: string;
  nullable: boolean;
  /** Whether a default is given, and which (schema.JSON). */
  hasDefault: boolean;
  default?: unknown;
}

/** Kubernetes extensions (schema.Extensions). */
export interface Extensions {
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listMapKeys: string[];
  listType: string | null;
  mapType: string | null;
}

/** Value validations (schema.ValueValidation), the junctors nested. */
export interface ValueValidation {
  /** Keywords that carry no structure (format, maximum, enum, ...), as given. */
  keywords: Record<string, unknown>;
  pattern: string;
  required: string[];
  allOf: NestedValueValidation[];
  anyOf: NestedValueValidation[];
  oneOf: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** A junctor's schema (schema.NestedValueValidation). */
export interface NestedValueValidation {
  valueValidation: ValueValidation;
  xValidations: ValidationRule[];
  items?: NestedValueValidation;
  properties?: Record<string, NestedValueValidation>;
  additionalProperties?: NestedValueValidation;
  forbiddenGenerics: Generic;
  forbiddenExtensions: Extensions;
}

/** A structural schema node (schema.Structural). */
export interface Structural {
  generic: Generic;
  extensions: Extensions;
  valueValidation: ValueValidation;
  xValidations: ValidationRule[];
  items?: Structural;
  properties?: Record<string, Structural>;
  /** additionalProperties: a schema, or `bool` alone (true/false). */
  additionalProperties?: { structural?: Structural; bool: boolean };
}

const VALUE_KEYWORDS = [
  'format',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'maxProperties',
  'minProperties',
  'enum',
] as const;

/** validateUnsupportedFields: the message of NewStructural's error, or undefined. */
function unsupportedField(s: JSONSchemaProps): string | undefined {
  const field = (name: string) => `OpenAPIV3Schema '${name}' is not supported`;
  if (s.id) return field('id');
  if (s.$schema) return field('schema');
  if (s.$ref) return field('$ref');
  if (Object.keys(s.patternProperties ?? {}).length) return field('patternProperties');
  if (Object.keys(s.dependencies ?? {}).length) return field('dependencies');
  if (orBoolSet(s.additionalItems)) return field('additionalItems');
  if (Object.keys(s.definitions ?? {}).length) return field('definitions');
  return undefined;
}

/** NewStructural's refusal, thrown inside the conversion. */
class StructuralError extends Error {}

function check(s: JSONSchemaProps): void {
  const unsupported = unsupportedField(s);
  if (unsupported) throw new StructuralError(unsupported);
  if (itemsSchemas(s).length) throw new StructuralError("OpenAPIV3Schema 'items' must be a schema, but is an array");
}

function generic(s: JSONSchemaProps): Generic {
  return {
    type: s.type ?? '',
    description: s.description ?? '',
    title: s.title ?? '',
    nullable: !!s.nullable,
    hasDefault: hasDefault(s),
    default: s.default,
  };
}

function extensions(s: JSONSchemaProps): Extensions {
  const preserve = s['x-kubernetes-preserve-unknown-fields'];
  if (preserve === false)
    throw new StructuralError("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  return {
    preserveUnknownFields: preserve === true,
    embeddedResource: !!s['x-kubernetes-embedded-resource'],
    intOrString: !!s['x-kubernetes-int-or-string'],
    listMapKeys: listOf(s['x-kubernetes-list-map-keys']),
    listType: s['x-kubernetes-list-type'] ?? null,
    mapType: s['x-kubernetes-map-type'] ?? null,
  };
}

function valueValidation(s: JSONSchemaProps): ValueValidation {
  const keywords: Record<string, unknown> = {};
  for (const k of VALUE_KEYWORDS) if (s[k] !== undefined && s[k] !== null) keywords[k] = s[k];
  return {
    keywords,
    pattern: s.pattern ?? '',
    required: listOf(s.required),
    allOf: listOf(s.allOf).map(nested),
    anyOf: listOf(s.anyOf).map(nested),
    oneOf: listOf(s.oneOf).map(nested),
    not: isSchemaObject(s.not) ? nested(s.not) : undefined,
  };
}

function nested(s: JSONSchemaProps): NestedValueValidation {
  check(s);
  const v: NestedValueValidation = {
    valueValidation: valueValidation(s),
    xValidations: listOf(s['x-kubernetes-validations']),
    forbiddenGenerics: generic(s),
    forbiddenExtensions: extensions(s),
  };
  if (isSchemaObject(s.items)) v.items = nested(s.items);
  if (isSchemaObject(s.properties))
    v.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, nested(p)]));
  const additional = orBoolSchema(s.additionalProperties);
  if (additional) v.additionalProperties = nested(additional);
  else if (s.additionalProperties === true) v.additionalProperties = emptyNested();
  return v;
}

function emptyNested(): NestedValueValidation {
  return nested({});
}

function structural(s: JSONSchemaProps): Structural {
  check(s);
  const ss: Structural = {
    generic: generic(s),
    extensions: extensions(s),
    valueValidation: valueValidation(s),
    xValidations: listOf(s['x-kubernetes-validations']),
  };
  if (isSchemaObject(s.items)) ss.items = structural(s.items);
  if (isSchemaObject(s.properties) && Object.keys(s.properties).length)
    ss.properties = Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, structural(p)]));
  if (orBoolSet(s.additionalProperties)) {
    const additional = orBoolSchema(s.additionalProperties);
    ss.additionalProperties = additional
      ? { structural: structural(additional), bool: true }
      : { bool: orBoolAllows(s.additionalProperties) };
  }
  return ss;
}

/**
 * NewStructural: the structural view of `s`, or `{error}` with upstream's message when `s`
 * uses what a structural schema cannot hold (id, $schema, $ref, patternProperties,
 * dependencies, additionalItems, definitions, a list of items,
 * `x-kubernetes-preserve-unknown-fields: false`).
 */
export function toStructural(s: JSONSchemaProps): { structural: Structural } | { error: string } {
  try {
    return { structural: structural(s) };
  } catch (err) {
    if (err instanceof StructuralError) return { error: err.message };
    throw err;
  }
}

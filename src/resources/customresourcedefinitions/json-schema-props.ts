/**
 * JSONSchemaProps of apiextensions.k8s.io/v1 (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1 types_jsonschema.go, 1.33) as it travels in JSON: a CRD version's
 * `schema.openAPIV3Schema`. The type names every field upstream decodes; the zod schema checks
 * the JSON types of those fields recursively and reports any other key as an unknown field
 * (so `fieldValidation` Strict refuses it and Warn drops it, as upstream's strict decoder does
 * for a Go struct). Upstream answers a wrongly typed field with a 400 decode error; here it is
 * a 422 cause at the field's path. `items` is a schema or (refused later) a list of schemas;
 * `additionalProperties`/`additionalItems` a schema or a boolean; `dependencies` a schema or a
 * list of property names per key.
 */
import { z } from 'zod';

/** One `x-kubernetes-validations` rule (v1 ValidationRule). */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string | null;
  fieldPath?: string;
  optionalOldSelf?: boolean | null;
}

/** A CRD schema node (v1 JSONSchemaProps) as JSON; every field optional, `null` as absent. */
export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string | null;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  default?: unknown;
  maximum?: number | null;
  exclusiveMaximum?: boolean;
  minimum?: number | null;
  exclusiveMinimum?: boolean;
  maxLength?: number | null;
  minLength?: number | null;
  pattern?: string;
  maxItems?: number | null;
  minItems?: number | null;
  uniqueItems?: boolean;
  multipleOf?: number | null;
  enum?: unknown[] | null;
  maxProperties?: number | null;
  minProperties?: number | null;
  required?: string[] | null;
  items?: JSONSchemaProps | JSONSchemaProps[] | null;
  allOf?: JSONSchemaProps[] | null;
  oneOf?: JSONSchemaProps[] | null;
  anyOf?: JSONSchemaProps[] | null;
  not?: JSONSchemaProps | null;
  properties?: Record<string, JSONSchemaProps> | null;
  additionalProperties?: JSONSchemaProps | boolean | null;
  patternProperties?: Record<string, JSONSchemaProps> | null;
  dependencies?: Record<string, JSONSchemaProps | string[]> | null;
  additionalItems?: JSONSchemaProps | boolean | null;
  definitions?: Record<string, JSONSchemaProps> | null;
  externalDocs?: { description?: string; url?: string } | null;
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean | null;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[] | null;
  'x-kubernetes-list-type'?: string | null;
  'x-kubernetes-map-type'?: string | null;
  'x-kubernetes-validations'?: ValidationRule[] | null;
}

/** How a field's JSON value is checked. */
type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'any' | 'strings' | 'schema' | 'schemas' | 'schemaMap';
type FieldKind = Kind | 'items' | 'schemaOrBool' | 'dependencies' | 'externalDocs' | 'validations' | 'anyList';

const FIELDS: Record<keyof JSONSchemaProps, FieldKind> = {
  id: 'string',
  $schema: 'string',
  $ref: 'string',
  description: 'string',
  type: 'string',
  format: 'string',
  title: 'string',
  default: 'any',
  maximum: 'number',
  exclusiveMaximum: 'boolean',
  minimum: 'number',
  exclusiveMinimum: 'boolean',
  maxLength: 'integer',
  minLength: 'integer',
  pattern: 'string',
  maxItems: 'integer',
  minItems: 'integer',
  uniqueItems: 'boolean',
  multipleOf: 'number',
  enum: 'anyList',
  maxProperties: 'integer',
  minProperties: 'integer',
  required: 'strings',
  items: 'items',
  allOf: 'schemas',
  oneOf: 'schemas',
  anyOf: 'schemas',
  not: 'schema',
  properties: 'schemaMap',
  additionalProperties: 'schemaOrBool',
  patternProperties: 'schemaMap',
  dependencies: 'dependencies',
  additionalItems: 'schemaOrBool',
  definitions: 'schemaMap',
  externalDocs: 'externalDocs',
  example: 'any',
  nullable: 'boolean',
  'x-kubernetes-preserve-unknown-fields': 'boolean',
  'x-kubernetes-embedded-resource': 'boolean',
  'x-kubernetes-int-or-string': 'boolean',
  'x-kubernetes-list-map-keys': 'strings',
  'x-kubernetes-list-type': 'string',
  'x-kubernetes-map-type': 'string',
  'x-kubernetes-validations': 'validations',
};

/** The fields of JSONSchemaProps in upstream's struct order. */
export const SCHEMA_FIELDS = Object.keys(FIELDS) as (keyof JSONSchemaProps)[];

const RULE_FIELDS: Record<keyof ValidationRule, Kind> = {
  rule: 'string',
  message: 'string',
  messageExpression: 'string',
  reason: 'string',
  fieldPath: 'string',
  optionalOldSelf: 'boolean',
};

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema node: a JSON object (what else a field holds is refused by the schema check). */
export function isSchemaObject(value: unknown): value is JSONSchemaProps {
  return isJsonObject(value);
}

/** One problem found: a path below the schema's root and either unknown keys or a message. */
interface Problem {
  path: (string | number)[];
  keys?: string[];
  message?: string;
}

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const expected = (path: Problem['path'], want: string, got: unknown): Problem => ({
  path,
  message: `Invalid input: expected ${want}, received ${typeName(got)}`,
});

/** Checks `value` as a field of kind `kind` at `path`, adding problems to `out`. */
function checkValue(value: unknown, kind: FieldKind, path: Problem['path'], out: Problem[]): void {
  if (value === null || value === undefined || kind === 'any') return;
  switch (kind) {
    case 'string':
    case 'boolean':
      if (typeof value !== kind) out.push(expected(path, kind, value));
      return;
    case 'number':
      if (typeof value !== 'number') out.push(expected(path, 'number', value));
      return;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) out.push(expected(path, 'int', value));
      return;
    case 'strings':
      if (!Array.isArray(value)) out.push(expected(path, 'array', value));
      else value.forEach((v, i) => checkValue(v, 'string', [...path, i], out));
      return;
    case 'anyList':
      if (!Array.isArray(value)) out.push(expected(path, 'array', value));
      return;
    case 'schema':
      return checkSchemaProps(value, path, out);
    case 'schemas':
      if (!Array.isArray(value)) out.push(expected(path, 'array', value));
      else value.forEach((v, i) => checkSchemaProps(v, [...path, i], out));
      return;
    case 'schemaMap':
      if (!isJsonObject(value)) out.push(expected(path, 'object', value));
      else for (const [k, v] of Object.entries(value)) checkSchemaProps(v, [...path, k], out);
      return;
    case 'items':
      return Array.isArray(value) ? checkValue(value, 'schemas', path, out) : checkSchemaProps(value, path, out);
    case 'schemaOrBool':
      if (typeof value !== 'boolean') checkSchemaProps(value, path, out);
      return;
    case 'dependencies':
      if (!isJsonObject(value)) out.push(expected(path, 'object', value));
      else
        for (const [k, v] of Object.entries(value))
          checkValue(v, Array.isArray(v) ? 'strings' : 'schema', [...path, k], out);
      return;
    case 'externalDocs':
      checkObject(value, { description: 'string', url: 'string' }, path, out);
      return;
    case 'validations':
      if (!Array.isArray(value)) out.push(expected(path, 'array', value));
      else value.forEach((v, i) => checkObject(v, RULE_FIELDS, [...path, i], out));
      return;
  }
}

/** Checks an object with the given fields: unknown keys and wrongly typed values. */
function checkObject(value: unknown, fields: Record<string, FieldKind>, path: Problem['path'], out: Problem[]): void {
  if (!isJsonObject(value)) return void out.push(expected(path, 'object', value));
  const unknown = Object.keys(value).filter((k) => !Object.hasOwn(fields, k));
  if (unknown.length) out.push({ path, keys: unknown });
  for (const [k, kind] of Object.entries(fields)) checkValue(value[k], kind, [...path, k], out);
}

function checkSchemaProps(value: unknown, path: Problem['path'], out: Problem[]): void {
  checkObject(value, FIELDS, path, out);
}

/**
 * `openAPIV3Schema`: a JSONSchemaProps checked field by field (unknown keys are reported as
 * unknown fields, to be dropped or refused by field validation).
 */
export const jsonSchemaProps = z.custom<JSONSchemaProps>().superRefine((value, ctx) => {
  const problems: Problem[] = [];
  checkSchemaProps(value, [], problems);
  for (const p of problems)
    if (p.keys) ctx.addIssue({ code: 'unrecognized_keys', keys: p.keys, path: p.path });
    else ctx.addIssue({ code: 'custom', message: p.message ?? '', path: p.path, input: value as unknown });
});

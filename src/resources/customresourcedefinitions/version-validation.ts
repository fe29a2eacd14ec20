/**
 * The per-version rules of a CustomResourceDefinition (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go, 1.33): validateCustomResourceDefinitionValidation
 * (a schema's root when /status is on, `nullable` at the root, structural schema, defaults,
 * then the keyword rules), ValidateCustomResourceDefinitionSubresources (scale paths),
 * ValidateCustomResourceColumnDefinition, ValidateCustomResourceSelectableFields and
 * validateDeprecationWarning. Used for the top-level fields (`spec.validation`, ...) and each
 * version's own.
 */
import { validateCrdValidationRules } from '../../api/cel/index.js';
import {
  duplicate,
  forbidden,
  invalidValue,
  required,
  tooMany,
  type FieldError,
} from '../../api/validation/field-errors.js';
import type { CustomResourceColumnDefinition, CustomResourceSubresources } from './customresourcedefinitions.schema.js';
import { validFieldPath } from './field-path.js';
import type { InternalSelectableField, InternalValidation } from './internal.js';
import { SCHEMA_FIELDS, type JSONSchemaProps } from './json-schema-props.js';
import { validateOpenAPISchema, type SchemaRuleOptions } from './openapi-schema-validation.js';
import { toStructural, type Structural } from './structural.js';
import { validateStructural } from './structural-validation.js';

/** MaxSelectableFields. */
export const MAX_SELECTABLE_FIELDS = 8;
const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/**
 * The defaults check upstream runs once a schema is structural (pkg/apiserver/schema/defaulting
 * ValidateDefaults and PruneDefaults): it needs pruning and custom-object validation, which
 * live with the custom-resource schema code, so it is given to the validation from there.
 */
export interface SchemaDefaultsCheck {
  /**
   * ValidateDefaults(at, schema, isResourceRoot true, requirePruned): each default must be
   * valid against its schema, valid metadata where it defaults metadata, and (when
   * `requirePruned`) free of fields pruning would drop (`<at>...default: Invalid value: ...:
   * must not have unknown fields`).
   */
  validate(schema: JSONSchemaProps, at: string, requirePruned: boolean): FieldError[];
  /** schemaHasUnprunedDefaults: whether some default of a structural `schema` has fields pruning drops. */
  hasUnprunedDefaults(schema: JSONSchemaProps): boolean;
}

/** The schema type api/cel reads (api/crd-schema's; this kind's own type is looser in nulls). */
type CelSchema = Parameters<typeof validateCrdValidationRules>[0];

/** validationOptions, as far as these rules read them. */
export interface VersionRuleOptions extends SchemaRuleOptions {
  readonly allowDefaults: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly defaults?: SchemaDefaultsCheck;
  /**
   * The `x-kubernetes-validations` rules and message expressions of the stored definition (an
   * update): compiled with every library, as upstream's StoredExpressions environment.
   */
  readonly preexistingExpressions?: ReadonlySet<string>;
}

/** The JSON names of allowedFieldsAtRootSchema, in JSONSchemaProps field order. */
const ROOT_FIELDS_WITH_STATUS = new Set([
  'description',
  'type',
  'format',
  'title',
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
  'required',
  'items',
  'properties',
  'externalDocs',
  'example',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-validations',
]);
const GO_ROOT_FIELDS =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

/** Whether a field's value is Go's zero value (absent, null, false, "", empty list or map). */
const isZero = (v: unknown) =>
  v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && !v.length);

/** The root rules when the status subresource is on: type object, and only the allowed fields. */
function statusRootRules(schema: JSONSchemaProps, at: string): FieldError[] {
  for (const field of SCHEMA_FIELDS) {
    const value = schema[field];
    if (isZero(value)) continue;
    if (field === 'type') {
      if (value !== 'object')
        return [
          invalidValue(
            `${at}.openAPIV3Schema.type`,
            value,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      continue;
    }
    if (!ROOT_FIELDS_WITH_STATUS.has(field))
      return [
        invalidValue(
          `${at}.openAPIV3Schema`,
          schema,
          `only ${GO_ROOT_FIELDS} fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
  }
  return [];
}

/** validateCustomResourceDefinitionValidation of `validation` at `at` (`spec.validation`, `spec.versions[0].schema`). */
export function validateSchemaOf(
  validation: InternalValidation | null | undefined,
  statusEnabled: boolean,
  opts: VersionRuleOptions,
  at: string,
): FieldError[] {
  const schema = validation?.openAPIV3Schema;
  if (!schema) return [];
  const errs: FieldError[] = statusEnabled ? statusRootRules(schema, at) : [];
  if (schema.nullable) errs.push(forbidden(`${at}.openAPIV3Schema.nullable`, 'nullable cannot be true at the root'));
  const schemaAt = `${at}.openAPIV3Schema`;
  let initErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const ss = toStructural(schema);
    if ('error' in ss) initErrs = [invalidValue(schemaAt, '', ss.error)];
    else {
      const structural = validateStructural(ss.structural, schemaAt);
      if (structural.length) errs.push(...structural);
      else {
        if (opts.defaults) errs.push(...opts.defaults.validate(schema, schemaAt, opts.requirePrunedDefaults));
        // x-kubernetes-validations: compiled, typed and costed (api/cel), for structural schemas only.
        errs.push(
          ...validateCrdValidationRules(schema as CelSchema, schemaAt, {
            preexisting: opts.preexistingExpressions,
            ruleFieldsReported: true, // by validateOpenAPISchema below
          }),
        );
      }
    }
  }
  errs.push(...validateOpenAPISchema(schema, schemaAt, opts, opts.allowDefaults));
  return errs.length ? errs : initErrs;
}

/** A simple JSON path as columns and scale use (validateSimpleJSONPath). */
function simpleJsonPath(path: string, at: string): FieldError[] {
  if (!path) return [invalidValue(at, path, 'must not be empty')];
  if (!path.startsWith('.')) return [invalidValue(at, path, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources. */
export function validateSubresources(sub: CustomResourceSubresources | null | undefined, at: string): FieldError[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const errs: FieldError[] = [];
  const scaleAt = `${at}.scale`;
  const paths = [
    ['specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec'],
    ['statusReplicasPath', scale.statusReplicasPath, ['.status.'], 'should be a json path under .status'],
  ] as const;
  for (const [name, path, prefixes, detail] of paths) {
    if (!path) {
      errs.push(required(`${scaleAt}.${name}`));
      continue;
    }
    const pathErrs = simpleJsonPath(path, `${scaleAt}.${name}`);
    if (pathErrs.length) errs.push(...pathErrs);
    else if (!prefixes.some((p) => path.startsWith(p))) errs.push(invalidValue(`${scaleAt}.${name}`, path, detail));
  }
  const selector = scale.labelSelectorPath;
  if (selector) {
    const pathErrs = simpleJsonPath(selector, `${scaleAt}.labelSelectorPath`);
    if (pathErrs.length) errs.push(...pathErrs);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.'))
      errs.push(
        invalidValue(`${scaleAt}.labelSelectorPath`, selector, 'should be a json path under either .spec or .status'),
      );
  }
  return errs;
}

/** ValidateCustomResourceColumnDefinition. */
export function validateColumn(col: CustomResourceColumnDefinition, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(required(`${at}.name`));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(required(`${at}.type`, types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(invalidValue(`${at}.type`, col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format))
    errs.push(invalidValue(`${at}.format`, col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  if (!col.jsonPath) errs.push(required(`${at}.JSONPath`));
  else errs.push(...simpleJsonPath(col.jsonPath, `${at}.JSONPath`));
  return errs;
}

/** ValidateCustomResourceSelectableFields against the structural `schema` (absent when not structural). */
export function validateSelectableFields(
  fields: readonly InternalSelectableField[],
  schema: Structural | undefined,
  at: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const fieldAt = `${at}[${i}].jsonPath`;
    if (!f.jsonPath) return void errs.push(required(fieldAt));
    let found;
    try {
      if (!schema) throw new Error('does not refer to a valid field');
      found = validFieldPath(f.jsonPath, schema, false);
    } catch (err) {
      return void errs.push(invalidValue(fieldAt, f.jsonPath, `is an invalid path: ${(err as Error).message}`));
    }
    if (found.root === 'metadata') errs.push(invalidValue(fieldAt, f.jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(found.schema?.generic.type ?? ''))
      errs.push(
        invalidValue(
          fieldAt,
          f.jsonPath,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    if (unique.has(found.path)) errs.push(duplicate(fieldAt, f.jsonPath));
    else unique.add(found.path);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(tooMany(at, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** validateDeprecationWarning: the messages for `warning` of a version (deprecated or not). */
export function deprecationWarningProblems(deprecated: boolean, warning: string | null | undefined): string[] {
  if (!deprecated && warning != null) return ['can only be set for deprecated versions'];
  if (warning == null) return [];
  const out: string[] = [];
  const bytes = Buffer.byteLength(warning);
  if (bytes > 256) out.push('must be <= 256 characters long');
  if (!bytes) out.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) {
      out.push(`must only contain printable UTF-8 characters; non-printable character found at index ${offset}`);
      break;
    }
    offset += Buffer.byteLength(ch);
  }
  return out;
}

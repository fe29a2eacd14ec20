/**
 * The keyword rules of a CRD schema (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go ValidateCustomResourceDefinitionOpenAPISchema,
 * specStandardValidatorV3 and validateMapListKeysMapSet, 1.33): OpenAPI v3 types only,
 * forbidden keywords (id, $ref, definitions, dependencies, patternProperties, additionalItems,
 * `type: null`, a list of items, `uniqueItems: true`), additionalProperties exclusive with
 * properties, defaults forbidden in metadata and under additionalProperties of metadata,
 * the x-kubernetes-* extensions' consistency (list types, map keys, map types, set items), and
 * the static shape of x-kubernetes-validations (rule, message, messageExpression, reason,
 * fieldPath). CEL compilation and cost are a later part.
 */
import { forbidden, invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo } from '../../api/validation/resources.js';
import { validFieldPath } from './field-path.js';
import { isSchemaObject, type JSONSchemaProps } from './json-schema-props.js';
import {
  OPENAPI_V3_TYPES,
  hasDefault,
  itemsSchema,
  itemsSchemas,
  listOf,
  orBoolAllows,
  orBoolSchema,
  orBoolSet,
  schemaEntries,
} from './schema-walk.js';
import { toStructural } from './structural.js';

/** The options of validationOptions that the keyword rules read. */
export interface SchemaRuleOptions {
  readonly requireValidPropertyType: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
}

/** specStandardValidatorV3's state down the tree. */
interface Standard {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
}

const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const hasNewlines = (s: string) => /[\n\r]/.test(s);
const key = (path: string, k: string) => `${path}[${k}]`;

/** specStandardValidatorV3.validate. */
function standard(s: JSONSchemaProps, at: string, v: Standard, opts: SchemaRuleOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.requireValidPropertyType && s.type && !OPENAPI_V3_TYPES.includes(s.type))
    errs.push(notSupported(`${at}.type`, s.type, OPENAPI_V3_TYPES));
  if (hasDefault(s) && !v.allowDefaults)
    errs.push(
      forbidden(`${at}.default`, `must not be set${v.disallowDefaultsReason ? ` ${v.disallowDefaultsReason}` : ''}`),
    );
  if (s.id) errs.push(forbidden(`${at}.id`, 'id is not supported'));
  if (orBoolSet(s.additionalItems)) errs.push(forbidden(`${at}.additionalItems`, 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length)
    errs.push(forbidden(`${at}.patternProperties`, 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length)
    errs.push(forbidden(`${at}.definitions`, 'definitions is not supported'));
  if (s.dependencies != null) errs.push(forbidden(`${at}.dependencies`, 'dependencies is not supported'));
  if (s.$ref != null) errs.push(forbidden(`${at}.$ref`, '$ref is not supported'));
  if (s.type === 'null')
    errs.push(forbidden(`${at}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (itemsSchemas(s).length) errs.push(forbidden(`${at}.items`, 'items must be a schema object and not an array'));
  if (v.insideResourceMeta && s['x-kubernetes-embedded-resource'])
    errs.push(forbidden(`${at}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  return errs;
}

/** The list and map extension rules of one node. */
function extensionRules(s: JSONSchemaProps, at: string, opts: SchemaRuleOptions): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'] ?? null;
  const mapType = s['x-kubernetes-map-type'] ?? null;
  const mapKeys = listOf(s['x-kubernetes-list-map-keys']);
  const items = itemsSchema(s);
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errs.push(invalidValue(`${at}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (mapType !== null && s.type !== 'object') {
    const detail = 'must be object if x-kubernetes-map-type is specified';
    errs.push(s.type ? invalidValue(`${at}.type`, s.type, detail) : required(`${at}.type`, detail));
  }
  if (mapType !== null && mapType !== 'atomic' && mapType !== 'granular')
    errs.push(notSupported(`${at}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== null && s.type !== 'array') {
    const detail = 'must be array if x-kubernetes-list-type is specified';
    errs.push(s.type ? invalidValue(`${at}.type`, s.type, detail) : required(`${at}.type`, detail));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const detail = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemList = items['x-kubernetes-list-type'] ?? null;
    if (items.type === 'array' && itemList !== null && itemList !== 'atomic')
      errs.push(invalidValue(`${at}.items.x-kubernetes-list-type`, itemList, detail));
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic')
      // Upstream reports the items' list type here.
      errs.push(invalidValue(`${at}.items.x-kubernetes-map-type`, itemList, detail));
  }
  if (listType !== null && !['atomic', 'set', 'map'].includes(listType))
    errs.push(notSupported(`${at}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (mapKeys.length) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === null) errs.push(required(`${at}.x-kubernetes-list-type`, detail));
    else if (listType !== 'map') errs.push(invalidValue(`${at}.x-kubernetes-list-type`, listType, detail));
  }
  if (listType === 'map') {
    if (!mapKeys.length)
      errs.push(required(`${at}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (s.items == null) errs.push(required(`${at}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    else if (!items)
      errs.push(
        invalidValue(`${at}.items`, s.items, 'must only have a single schema if x-kubernetes-list-type is map'),
      );
    else if (items.type !== 'object')
      errs.push(
        invalidValue(
          `${at}.items.type`,
          items.type ?? '',
          "must be object if parent array's x-kubernetes-list-type is map",
        ),
      );
    else {
      const seen = new Set<string>();
      for (const k of mapKeys) {
        const p = items.properties?.[k];
        if (!p)
          errs.push(
            invalidGo(
              `${at}.x-kubernetes-list-map-keys`,
              goSlice('string', mapKeys),
              'entries must all be names of item properties',
            ),
          );
        else if (p.type === 'array' || p.type === 'object')
          // Upstream reports the items' type here.
          errs.push(
            invalidValue(
              `${key(`${at}.items.properties`, k)}.type`,
              items.type,
              "must be a scalar type if parent array's x-kubernetes-list-type is map",
            ),
          );
        if (seen.has(k))
          errs.push(
            invalidGo(
              `${at}.x-kubernetes-list-map-keys`,
              goSlice('string', mapKeys),
              'must not contain duplicate entries',
            ),
          );
        seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(s, at));
  return errs;
}

/** validateMapListKeysMapSet: set and map items not nullable; map keys required or defaulted, not nullable. */
export function validateMapListKeysMapSet(s: JSONSchemaProps, at: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable)
    errs.push(forbidden(`${at}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errs;
  const requiredKeys = new Set(listOf(items.required));
  for (const k of listOf(s['x-kubernetes-list-map-keys'])) {
    const p = items.properties?.[k];
    if (!p) continue;
    const at2 = key(`${at}.items.properties`, k);
    if (!requiredKeys.has(k) && !hasDefault(p))
      errs.push(
        required(
          `${at2}.default`,
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    if (p.nullable)
      errs.push(
        forbidden(`${at2}.nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'),
      );
  }
  return errs;
}

/** The static rules of x-kubernetes-validations (no CEL). */
function validationRules(s: JSONSchemaProps, at: string): FieldError[] {
  const errs: FieldError[] = [];
  listOf(s['x-kubernetes-validations']).forEach((r, i) => {
    const base = `${at}.x-kubernetes-validations[${i}]`;
    const rule = (r.rule ?? '').trim();
    const message = r.message ?? '';
    const trimmedMessage = message.trim();
    if (!rule) errs.push(required(`${base}.rule`, 'rule is not specified'));
    else if (message && !trimmedMessage)
      errs.push(invalidValue(`${base}.message`, message, 'message must be non-empty if specified'));
    else if (hasNewlines(trimmedMessage))
      errs.push(invalidValue(`${base}.message`, message, 'message must not contain line breaks'));
    else if (hasNewlines(rule) && !trimmedMessage)
      errs.push(required(`${base}.message`, 'message must be specified if rule contains line breaks'));
    if (r.messageExpression && !r.messageExpression.trim())
      errs.push(required(`${base}.messageExpression`, 'messageExpression must be non-empty if specified'));
    if (r.reason != null && !SUPPORTED_REASONS.includes(r.reason))
      errs.push(notSupported(`${base}.reason`, r.reason, SUPPORTED_REASONS));
    const fieldPath = r.fieldPath ?? '';
    if (fieldPath && !fieldPath.trim())
      errs.push(invalidValue(`${base}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
    if (hasNewlines(fieldPath))
      errs.push(invalidValue(`${base}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath && !pathValid(s, fieldPath))
      errs.push(invalidValue(`${base}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
  });
  return errs;
}

/** pathValid: a schema that is not structural accepts any path (it is refused elsewhere). */
function pathValid(s: JSONSchemaProps, path: string): boolean {
  const ss = toStructural(s);
  if ('error' in ss) return true;
  try {
    validFieldPath(path, ss.structural);
    return true;
  } catch {
    return false;
  }
}

/**
 * ValidateCustomResourceDefinitionOpenAPISchema of `s` at `at` (without CEL): every keyword
 * rule of the node and of the schemas nested in it.
 */
export function validateOpenAPISchema(
  s: JSONSchemaProps | null | undefined,
  at: string,
  opts: SchemaRuleOptions,
  allowDefaults: boolean,
): FieldError[] {
  return walk(s, at, { allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false }, true, opts);
}

function walk(
  s: JSONSchemaProps | null | undefined,
  at: string,
  v: Standard,
  isRoot: boolean,
  opts: SchemaRuleOptions,
): FieldError[] {
  if (!isSchemaObject(s)) return [];
  const errs = standard(s, at, v, opts);
  if (s.uniqueItems)
    errs.push(
      forbidden(
        `${at}.uniqueItems`,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  const properties = schemaEntries(s.properties);
  if (orBoolSet(s.additionalProperties)) {
    if (properties.length && (!orBoolAllows(s.additionalProperties) || orBoolSchema(s.additionalProperties)))
      errs.push(forbidden(`${at}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    const sub = v.insideResourceMeta
      ? {
          ...v,
          allowDefaults: false,
          disallowDefaultsReason: 'inside additionalProperties applying to object metadata',
        }
      : v;
    errs.push(...walk(orBoolSchema(s.additionalProperties), `${at}.additionalProperties`, sub, false, opts));
  }
  for (const [name, p] of properties) {
    let sub = v;
    if ((isRoot || s['x-kubernetes-embedded-resource']) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errs.push(...walk(p, key(`${at}.properties`, name), sub, false, opts));
  }
  errs.push(...walk(s.not, `${at}.not`, v, false, opts));
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const)
    listOf(s[junctor]).forEach((j, i) => errs.push(...walk(j, `${at}.${junctor}[${i}]`, v, false, opts)));
  for (const [name, d] of schemaEntries(s.definitions))
    errs.push(...walk(d, key(`${at}.definitions`, name), v, false, opts));
  errs.push(...walk(itemsSchema(s), `${at}.items`, v, false, opts));
  itemsSchemas(s).forEach((item, i) => errs.push(...walk(item, `${at}.items[${i}]`, v, false, opts)));
  for (const [name, d] of Object.entries(s.dependencies ?? {}))
    if (isSchemaObject(d)) errs.push(...walk(d as JSONSchemaProps, key(`${at}.dependencies`, name), v, false, opts));
  errs.push(...extensionRules(s, at, opts), ...validationRules(s, at));
  return errs;
}

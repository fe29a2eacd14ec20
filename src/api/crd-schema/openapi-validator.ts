/**
 * The OpenAPI schema validator upstream runs on custom objects: kube-openapi
 * pkg/validation/validate (schema.go, type.go, schema_props.go, validator.go, values.go,
 * slice_validator.go, object_validator.go, formats.go) over the CRD's JSONSchemaProps as
 * apiextensions converts it (`x-kubernetes-int-or-string` is type [integer, string]; formats it
 * does not support are dropped), with 1.33's ratcheting on update
 * (apiextensions-apiserver pkg/apiserver/validation/ratcheting.go: errors in a value equal to
 * its correlated old value are dropped; object fields correlate by name, `x-kubernetes-list-type:
 * map` items by their keys, other list items not at all).
 */
import { Result, openapiErrors as E } from './openapi-result.js';
import { checkFormat, isSupportedFormat } from './formats.js';
import { compilePattern } from './regex.js';
import { goFloat, goNumber, goQuote } from './go-format.js';
import { deepEqual, goKind, isJsonInteger, listMapKeyOf, type GoKind } from './values.js';
import type { JSONSchemaProps } from './types.js';

/** The correlated old value of the node being validated (ratcheting), when there is one. */
export interface Old {
  value: unknown;
}

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const typesOf = (s: JSONSchemaProps): string[] =>
  s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
const formatOf = (s: JSONSchemaProps): string => (s.format && isSupportedFormat(s.format) ? s.format : '');

/** Validate `data` against `s` at `path` (upstream SchemaValidator.Validate), ratcheting against `old`. */
export function validateSchema(s: JSONSchemaProps, path: string, data: unknown, old?: Old): Result {
  const result = validateNode(s, path, data, old);
  if (!result.valid && old !== undefined && deepEqual(data, old.value)) {
    const ratcheted = new Result();
    ratcheted.matchCount = result.matchCount;
    return ratcheted;
  }
  return result;
}

function validateNode(s: JSONSchemaProps, path: string, data: unknown, old?: Old): Result {
  const result = new Result();
  const kind = goKind(data);
  if (kind === 'nil') {
    result.merge(typeCheck(s, path, data, kind), enumCheck(s, path, data));
    return result;
  }
  const run = (applies: boolean, check: () => Result | undefined) => {
    if (!applies) return;
    result.merge(check());
    result.inc();
  };
  run(typesOf(s).length > 0 || formatOf(s) !== '', () => typeCheck(s, path, data, kind));
  run(true, () => junctors(s, path, data, old));
  run(kind === 'string', () => stringCheck(s, path, data as string));
  run(kind === 'string' && formatOf(s) !== '', () => formatCheck(s, path, data as string));
  run(kind === 'int' || kind === 'float', () => numberCheck(s, path, data as number, kind));
  run(kind === 'slice', () => sliceCheck(s, path, data as unknown[], old));
  run(true, () => enumCheck(s, path, data));
  run(kind === 'map', () => objectCheck(s, path, data as Record<string, unknown>, old));
  result.inc();
  return result;
}

function typeCheck(s: JSONSchemaProps, path: string, data: unknown, kind: GoKind): Result {
  const result = new Result();
  result.inc();
  const types = typesOf(s);
  const format = formatOf(s);
  if (kind === 'nil') {
    if (types.length > 0 && !types.includes('null') && !s.nullable)
      return Result.of(E.invalidType(path, types.join(','), 'null'));
    return result;
  }
  const [schType, dataFormat] = schemaInfo(kind);
  const isIntFloat = schType === 'integer' && types.includes('number');
  if (
    kind !== 'string' &&
    kind !== 'slice' &&
    format !== '' &&
    !(types.includes(schType) || dataFormat === format || isIntFloat)
  ) {
    return Result.of(E.invalidType(path, format, dataFormat));
  }
  if (
    !(types.includes('number') || types.includes('integer')) &&
    format !== '' &&
    (kind === 'string' || kind === 'slice')
  ) {
    return result;
  }
  if (!(types.includes(schType) || isIntFloat)) return Result.of(E.invalidType(path, types.join(','), schType));
  return result;
}

/** Upstream schemaInfoForType: the JSON type and format of a decoded Go value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int':
      return ['integer', 'int64'];
    case 'float':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    default:
      return ['object', ''];
  }
}

/** allOf / oneOf / anyOf / not (upstream schemaPropsValidator), choosing failures by match count. */
function junctors(s: JSONSchemaProps, path: string, data: unknown, old?: Old): Result {
  const main = new Result();
  if (s.anyOf?.length) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const sub of s.anyOf) {
      const r = validateSchema(sub, path, data, old);
      if (r.valid) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) main.addErrors(E.composite(`${goQuote(path)} must validate at least one schema (anyOf)`));
    main.merge(best ?? firstSuccess);
  }
  if (s.oneOf?.length) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateSchema(sub, path, data, old);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.addErrors(E.composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${more}`));
      main.merge(best);
    } else main.merge(firstSuccess);
  }
  if (s.allOf?.length) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateSchema(sub, path, data, old);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      const more = validated === 0 ? '. None validated' : '';
      main.addErrors(E.composite(`${goQuote(path)} must validate all the schemas (allOf)${more}`));
    }
  }
  if (s.not && validateSchema(s.not, path, data, old).valid) {
    main.addErrors(E.composite(`${goQuote(path)} must not validate the schema (not)`));
  }
  main.inc();
  return main;
}

function stringCheck(s: JSONSchemaProps, path: string, data: string): Result | undefined {
  const runes = [...data].length;
  if (s.maxLength !== undefined && runes > s.maxLength) return Result.of(E.tooLong(path, s.maxLength, data));
  if (s.minLength !== undefined && runes < s.minLength) return Result.of(E.tooShort(path, s.minLength, data));
  if (s.pattern) {
    const c = compilePattern(s.pattern);
    if (c.error !== undefined)
      return Result.of(E.failedPattern(path, `${s.pattern}, but pattern is invalid: ${c.error}`, data));
    if (!c.re.test(data)) return Result.of(E.failedPattern(path, s.pattern, data));
  }
  return undefined;
}

function formatCheck(s: JSONSchemaProps, path: string, data: string): Result | undefined {
  const format = formatOf(s);
  return checkFormat(format, data) ? undefined : Result.of(E.invalidType(path, format, data));
}

function numberCheck(s: JSONSchemaProps, path: string, data: number, kind: GoKind): Result {
  const res = new Result();
  const multiple = new Result();
  const min = new Result();
  const max = new Result();
  const isInt = kind === 'int';
  if (s.multipleOf !== undefined) {
    const factor = s.multipleOf;
    const intFactor = Math.trunc(factor);
    if (factor < 0)
      multiple.addErrors(E.multipleOfMustBePositive(path, isInt ? goNumber(intFactor) : goFloat(factor), factor));
    else if (isInt && intFactor !== 0) {
      if (data % intFactor !== 0) multiple.addErrors(E.notMultipleOf(path, goNumber(intFactor), data));
    } else if (!isJsonInteger(factor < 1 ? (1 / factor) * data : data / factor)) {
      multiple.addErrors(E.notMultipleOf(path, goFloat(factor), data));
    }
  }
  if (s.minimum !== undefined) {
    const bound = isInt ? Math.trunc(s.minimum) : s.minimum;
    const ex = Boolean(s.exclusiveMinimum);
    if (ex ? data <= bound : data < bound)
      min.addErrors(E.exceedsMinimum(path, isInt ? goNumber(bound) : goFloat(bound), ex, data));
  }
  if (s.maximum !== undefined) {
    const bound = isInt ? Math.trunc(s.maximum) : s.maximum;
    const ex = Boolean(s.exclusiveMaximum);
    if (ex ? data >= bound : data > bound)
      max.addErrors(E.exceedsMaximum(path, isInt ? goNumber(bound) : goFloat(bound), ex, data));
  }
  res.merge(multiple, min, max);
  res.inc();
  return res;
}

function sliceCheck(s: JSONSchemaProps, path: string, data: unknown[], old?: Old): Result {
  const result = new Result();
  const items = s.items && !Array.isArray(s.items) ? s.items : undefined;
  if (items) {
    const mapKeys = s['x-kubernetes-list-type'] === 'map' ? (s['x-kubernetes-list-map-keys'] ?? []) : undefined;
    const oldList = old && Array.isArray(old.value) ? old.value : undefined;
    data.forEach((v, i) => {
      let itemOld: Old | undefined;
      if (mapKeys && oldList) {
        const key = listMapKeyOf(v, mapKeys);
        const match = key === undefined ? undefined : oldList.find((o) => listMapKeyOf(o, mapKeys) === key);
        if (match !== undefined) itemOld = { value: match };
      }
      result.merge(validateSchema(items, `${path}[${i}]`, v, itemOld));
    });
  }
  if (s.minItems !== undefined && data.length < s.minItems)
    result.addErrors(E.tooFewItems(path, s.minItems, data.length));
  if (s.maxItems !== undefined && data.length > s.maxItems)
    result.addErrors(E.tooManyItems(path, s.maxItems, data.length));
  if (s.uniqueItems && data.some((v, i) => data.slice(0, i).some((u) => deepEqual(u, v))))
    result.addErrors(E.duplicateItems(path));
  result.inc();
  return result;
}

/** enum, with Go's reflect conversions: 1.5 matches 1 (int conversion), 97 matches "a" (rune). */
function enumCheck(s: JSONSchemaProps, path: string, data: unknown): Result | undefined {
  if (!s.enum?.length) return undefined;
  const kind = goKind(data);
  for (const e of s.enum) {
    if (e === null || e === undefined || kind === 'nil') continue;
    const ek = goKind(e);
    if (deepEqual(data, e)) return undefined;
    if (ek === 'int' && (kind === 'int' || kind === 'float') && Math.trunc(data as number) === e) return undefined;
    if (ek === 'string' && kind === 'int') {
      const n = data as number;
      const rune = n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\uFFFD';
      if (rune === e) return undefined;
    }
  }
  return Result.of(E.enumFail(path, data, s.enum));
}

function objectCheck(s: JSONSchemaProps, path: string, val: Record<string, unknown>, old?: Old): Result {
  const keys = Object.keys(val);
  if (s.minProperties !== undefined && keys.length < s.minProperties) {
    return Result.of(E.tooFewProperties(path, s.minProperties, keys.length));
  }
  if (s.maxProperties !== undefined && keys.length > s.maxProperties) {
    return Result.of(E.tooManyProperties(path, s.maxProperties, keys.length));
  }
  const res = new Result();
  const props = s.properties ?? {};
  const oldMap =
    old && old.value !== null && typeof old.value === 'object' && !Array.isArray(old.value)
      ? (old.value as Record<string, unknown>)
      : undefined;
  const childOld = (k: string): Old | undefined =>
    oldMap && k in oldMap && !(path === '' && META_FIELDS.has(k)) ? { value: oldMap[k] } : undefined;
  const ap = s.additionalProperties;
  if (ap === false) {
    for (const k of keys) if (!(k in props)) res.addErrors(E.propertyNotAllowed(path, k));
  } else if (ap && typeof ap === 'object') {
    for (const k of keys) if (!(k in props)) res.merge(validateSchema(ap, `${path}.${k}`, val[k], childOld(k)));
  }
  for (const [name, sub] of Object.entries(props)) {
    if (name in val) res.merge(validateSchema(sub, path ? `${path}.${name}` : name, val[name], childOld(name)));
  }
  for (const k of s.required ?? []) if (!(k in val)) res.addErrors(E.required(`${path}.${k}`));
  return res;
}

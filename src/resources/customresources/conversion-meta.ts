/**
 * What a conversion webhook may change of an object's metadata (upstream apiextensions-apiserver
 * 1.33 pkg/apiserver/conversion/webhook_converter.go validateConvertedObject and
 * restoreObjectMeta): kind, name, namespace and uid must stay; of metadata only labels and
 * annotations are taken from the webhook's answer (validated as upstream's ValidateLabels and
 * ValidateAnnotations when they changed), everything else is restored from the original. Pure.
 */
import { isRecord } from '../../api/json.js';
import { deepCopy } from '../../api/object.js';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';
import { formatValue } from '../../api/validation/field-errors.js';
import { TOTAL_ANNOTATION_SIZE_LIMIT } from '../../api/apply/last-applied.js';
import { ConversionFailure, stringField } from './conversion-review.js';

/** Go's %T of a value decoded from JSON as unstructured (whole numbers are int64). */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return 'map[string]interface {}';
  }
}

/** A metadata string field as unstructured's getters read it. */
const metaString = (obj: Readonly<Record<string, unknown>>, key: string): string =>
  isRecord(obj.metadata) ? stringField(obj.metadata, key) : '';

/**
 * Check that the webhook kept the object's identity (validateConvertedObject). Throws
 * ConversionFailure `must have the same <kind|name|namespace|UID>: <original> != <converted>`.
 */
export function validateConvertedObject(
  original: Readonly<Record<string, unknown>>,
  converted: Readonly<Record<string, unknown>>,
): void {
  const pairs: [string, string, string][] = [
    ['kind', stringField(original, 'kind'), stringField(converted, 'kind')],
    ['name', metaString(original, 'name'), metaString(converted, 'name')],
    ['namespace', metaString(original, 'namespace'), metaString(converted, 'namespace')],
    ['UID', metaString(original, 'uid'), metaString(converted, 'uid')],
  ];
  for (const [what, e, a] of pairs)
    if (e !== a) throw new ConversionFailure(`must have the same ${what}: ${e} != ${a}`);
}

/** Go's aggregate of field errors: one message as is, several (deduplicated) in `[a, b]`. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** ValidateLabels (`metadata.labels`) or ValidateAnnotations (upstream's path `metadata.annotation`). */
function metadataMapErrors(field: 'labels' | 'annotations', map: Readonly<Record<string, string>>): string[] {
  const errs: string[] = [];
  const keys = Object.keys(map).sort();
  if (field === 'labels') {
    const at = 'metadata.labels';
    for (const k of keys) {
      for (const m of validateQualifiedName(k)) errs.push(`${at}: Invalid value: ${formatValue(k)}: ${m}`);
      for (const m of validateLabelValue(map[k]!)) errs.push(`${at}: Invalid value: ${formatValue(map[k])}: ${m}`);
    }
    return errs;
  }
  const at = 'metadata.annotation';
  let bytes = 0;
  for (const k of keys) {
    for (const m of validateQualifiedName(k.toLowerCase())) errs.push(`${at}: Invalid value: ${formatValue(k)}: ${m}`);
    bytes += Buffer.byteLength(k) + Buffer.byteLength(map[k]!);
  }
  if (bytes > TOTAL_ANNOTATION_SIZE_LIMIT)
    errs.push(`${at}: Too long: may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`);
  return errs;
}

/**
 * Restore `converted`'s metadata from `original`, keeping the labels and annotations of
 * `converted` (restoreObjectMeta). Changes `converted` in place, as upstream does (also when it
 * then fails). Throws ConversionFailure: `missing metadata in converted object`, `invalid
 * metadata of type <T> in converted object`, `metadata.labels[k] must be a string, but is <T> in
 * converted object`, or the aggregated label/annotation validation errors.
 */
export function restoreObjectMeta(
  original: Readonly<Record<string, unknown>>,
  converted: Record<string, unknown>,
): void {
  if (!Object.hasOwn(converted, 'metadata')) throw new ConversionFailure('missing metadata in converted object');
  const responseMeta = converted.metadata;
  if (!isRecord(responseMeta))
    throw new ConversionFailure(`invalid metadata of type ${goTypeName(responseMeta)} in converted object`);
  converted.metadata = Object.hasOwn(original, 'metadata') ? deepCopy(original.metadata) : {};
  const meta = converted.metadata;
  if (!isRecord(meta)) throw new ConversionFailure(`invalid metadata of type ${goTypeName(meta)} in input object`);
  for (const field of ['labels', 'annotations'] as const) {
    const response = responseMeta[field];
    if (response === undefined || response === null) {
      delete meta[field];
      continue;
    }
    if (!isRecord(response))
      throw new ConversionFailure(`invalid metadata.${field} of type ${goTypeName(response)} in converted object`);
    const before = meta[field];
    if (before !== undefined && before !== null && !isRecord(before))
      throw new ConversionFailure(`invalid metadata.${field} of type ${goTypeName(before)} in original object`);
    const originalField = isRecord(before) ? before : {};
    let changed = Object.keys(originalField).length !== Object.keys(response).length;
    const strings: Record<string, string> = {};
    for (const k of Object.keys(response).sort()) {
      const v = response[k];
      if (typeof v !== 'string')
        throw new ConversionFailure(
          `metadata.${field}[${k}] must be a string, but is ${goTypeName(v)} in converted object`,
        );
      if (originalField[k] !== v) changed = true;
      strings[k] = v;
    }
    if (changed) {
      const errs = metadataMapErrors(field, strings);
      if (errs.length) throw new ConversionFailure(aggregate(errs));
    }
    meta[field] = response;
  }
}

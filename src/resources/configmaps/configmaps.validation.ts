/**
 * ConfigMap rules of upstream 1.10 pkg/apis/core/validation: ValidateConfigMap (config-map keys
 * in data and binaryData, no key in both, at most MaxSecretSize bytes in all, reported on the
 * whole object) and ValidateConfigMapUpdate (the same rules).
 */
import { MAX_DATA_SIZE, validateConfigKey } from '../../api/config-data.js';
import { forbidden, invalidValue, tooLong, type FieldError } from '../../api/validation/field-errors.js';
import type { ConfigMap } from './configmaps.schema.js';

/** Upstream ValidateConfigMap (the ObjectMeta rules are the store's). */
export function validateConfigMap(obj: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  const data = obj.data ?? {};
  const binary = obj.binaryData ?? {};
  let size = 0;
  for (const [k, v] of Object.entries(data)) {
    errs.push(...validateConfigKey(`data[${k}]`, k));
    if (Object.prototype.hasOwnProperty.call(binary, k))
      errs.push(invalidValue(`data[${k}]`, k, 'duplicate of key present in binaryData'));
    size += Buffer.byteLength(String(v));
  }
  for (const [k, v] of Object.entries(binary)) {
    errs.push(...validateConfigKey(`binaryData[${k}]`, k));
    // The schema has checked the base64; upstream counts the decoded bytes.
    size += Buffer.from(String(v), 'base64').length;
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong('', obj, MAX_DATA_SIZE));
  return errs;
}

/** reflect.DeepEqual of two string maps (an absent map equals only an absent one). */
const sameMap = (a: Record<string, string> | null | undefined, b: Record<string, string> | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (!!a && !!b && Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v));
const LOCKED = 'field is immutable when `immutable` is set';

/** Upstream ValidateConfigMapUpdate: the rules of a new ConfigMap. */
export function validateConfigMapUpdate(obj: ConfigMap, old?: ConfigMap): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream 1.21+: an immutable ConfigMap keeps its data and binaryData and stays immutable.
  if (old?.immutable === true) {
    if (obj.immutable !== true) errs.push(forbidden('immutable', LOCKED));
    if (!sameMap(obj.data, old.data)) errs.push(forbidden('data', LOCKED));
    if (!sameMap(obj.binaryData, old.binaryData)) errs.push(forbidden('binaryData', LOCKED));
  }
  return [...errs, ...validateConfigMap(obj)];
}

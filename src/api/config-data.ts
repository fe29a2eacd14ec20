/**
 * Rules shared by ConfigMap and Secret data (upstream pkg/apis/core/validation: ValidateConfigMap,
 * ValidateSecret; IsConfigMapKey of k8s.io/apimachinery pkg/util/validation; MaxSecretSize 1 MiB
 * applies to both in 1.10).
 */
import type { FieldError } from './validation/field-errors.js';
import { invalidValue } from './validation/field-errors.js';
import { isConfigMapKey } from './core/validation/strings.js';

/** Upstream MaxSecretSize: total bytes of the values of `data` (and a ConfigMap's binaryData). */
export const MAX_DATA_SIZE = 1024 * 1024;

/** Problems of one data key (`data[key]`), worded as upstream IsConfigMapKey. */
export function validateConfigKey(field: string, key: string): FieldError[] {
  return isConfigMapKey(key).map((m) => invalidValue(field, key, m));
}

/** True for standard base64 (with padding), as Go's []byte JSON decoding accepts. */
export function isBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}

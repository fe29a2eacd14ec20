/**
 * Rules shared by ConfigMap and Secret data (upstream pkg/apis/core/validation: ValidateConfigMap,
 * ValidateSecret; IsConfigMapKey of k8s.io/apimachinery pkg/util/validation; MaxSecretSize 1 MiB
 * applies to both in 1.10).
 */
import type { FieldError } from '../errors/api-error.js';
import { invalidValue } from './validation/field-errors.js';

/** Upstream MaxSecretSize: total bytes of the values of `data` (and a ConfigMap's binaryData). */
export const MAX_DATA_SIZE = 1024 * 1024;

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/** Problems of one data key (`data[key]`), worded as upstream IsConfigMapKey. */
export function validateConfigKey(field: string, key: string): FieldError[] {
  const errs: FieldError[] = [];
  const invalid = (detail: string) => invalidValue(field, key, detail);
  if (key.length > 253) errs.push(invalid('must be no more than 253 characters'));
  if (!CONFIG_KEY.test(key)) {
    errs.push(invalid("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"));
  }
  if (key === '.' || key === '..') errs.push(invalid(`must not be '${key}'`));
  else if (key.startsWith('..')) errs.push(invalid("must not start with '..'"));
  return errs;
}

/** True for standard base64 (with padding), as Go's []byte JSON decoding accepts. */
export function isBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}

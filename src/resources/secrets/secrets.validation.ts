/**
 * Secret rules of upstream 1.10 pkg/apis/core/validation: ValidateSecret (config-map keys in
 * data, at most MaxSecretSize bytes in all, and the keys each type needs) and
 * ValidateSecretUpdate (the type is immutable). Paths are upstream's, including the
 * `data[%s][username]` its basic-auth and ssh-auth rules print.
 */
import { MAX_DATA_SIZE, isBase64, validateConfigKey } from '../../api/config-data.js';
import { forbidden, invalidValue, required, tooLong, type FieldError } from '../../api/validation/field-errors.js';
import { goJsonMapError } from '../../api/validation/go-json.js';
import type { Secret } from './secrets.schema.js';

const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
const REDACTED = '<secret contents redacted>';

/** A docker config key that must be present and hold a JSON object. */
function validateDockerConfig(data: Record<string, Buffer>, key: string): FieldError[] {
  const value = data[key];
  if (value === undefined) return [required(`data[${key}]`)];
  const err = goJsonMapError(value);
  return err ? [invalidValue(`data[${key}]`, REDACTED, err)] : [];
}

/** Upstream ValidateSecret (the ObjectMeta rules are the store's). */
export function validateSecret(obj: Secret): FieldError[] {
  const errs: FieldError[] = [];
  const data: Record<string, Buffer> = {};
  let size = 0;
  for (const [k, v] of Object.entries(obj.data ?? {})) {
    errs.push(...validateConfigKey(`data[${k}]`, k));
    // Upstream decodes base64 before validation; a value that is not base64 is refused here.
    if (typeof v !== 'string' || !isBase64(v)) {
      errs.push({
        reason: 'FieldValueInvalid',
        field: `data[${k}]`,
        message: `Invalid value: "${REDACTED}": must be base64 encoded`,
      });
      continue;
    }
    data[k] = Buffer.from(v, 'base64');
    size += data[k].length;
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong('data', '', MAX_DATA_SIZE));
  const has = (key: string) => Object.prototype.hasOwnProperty.call(data, key);
  switch (obj.type) {
    case 'kubernetes.io/service-account-token':
      if (!obj.metadata.annotations?.[SERVICE_ACCOUNT_NAME_KEY])
        errs.push(required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`));
      break;
    case 'kubernetes.io/dockercfg':
      errs.push(...validateDockerConfig(data, '.dockercfg'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      errs.push(...validateDockerConfig(data, '.dockerconfigjson'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password'))
        errs.push(required('data[%s][username]'), required('data[%s][password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data['ssh-privatekey']?.length) errs.push(required('data[%s][ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required('data[tls.crt]'));
      if (!has('tls.key')) errs.push(required('data[tls.key]'));
      break;
  }
  return errs;
}

/** reflect.DeepEqual of two string maps (an absent map equals only an absent one). */
const sameMap = (a: Record<string, string> | null | undefined, b: Record<string, string> | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (!!a && !!b && Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v));
const LOCKED = 'field is immutable when `immutable` is set';

/** Upstream ValidateSecretUpdate: an empty type keeps the old one; the type may not change. */
export function validateSecretUpdate(obj: Secret, old: Secret): FieldError[] {
  if (!obj.type) obj.type = old.type;
  const errs: FieldError[] = [];
  if (obj.type !== old.type) errs.push(invalidValue('type', obj.type, 'field is immutable'));
  // Upstream 1.21+: an immutable Secret keeps its data and stays immutable.
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push(forbidden('immutable', LOCKED));
    if (!sameMap(obj.data, old.data)) errs.push(forbidden('data', LOCKED));
  }
  return [...errs, ...validateSecret(obj)];
}

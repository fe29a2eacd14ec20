/**
 * Secret rules (upstream pkg/registry/core/secret/strategy.go and ValidateSecret): `stringData`
 * is merged into `data` (base64) and dropped; type defaults to Opaque and cannot change; data
 * keys are config keys, values base64, total decoded size <= 1 MiB; typed secrets need their
 * fields (service account tokens keep their type and need the service account annotation).
 */
import { MAX_DATA_SIZE, isBase64, tooLong, validateConfigKey } from '../../api/config-data.js';
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../errors/api-error.js';
import type { Strategy } from '../../registry/types.js';

const SERVICE_ACCOUNT_TOKEN = 'kubernetes.io/service-account-token';

function mergeStringData(obj: ApiObject): void {
  const stringData = obj.stringData as Record<string, string> | undefined;
  if (stringData) {
    const data = { ...((obj.data ?? {}) as Record<string, string>) };
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v)).toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
  obj.type ??= 'Opaque';
}

function validate(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries((obj.data ?? {}) as Record<string, string>)) {
    errs.push(...validateConfigKey(`data[${k}]`, k));
    if (typeof v !== 'string' || !isBase64(v)) {
      errs.push({ reason: 'FieldValueInvalid', field: `data[${k}]`, message: `Invalid value: "<secret contents redacted>": must be base64 encoded` });
    } else size += Buffer.from(v, 'base64').length;
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong('data'));
  if (obj.type === SERVICE_ACCOUNT_TOKEN && !obj.metadata.annotations?.['kubernetes.io/service-account.name']) {
    errs.push({ reason: 'FieldValueRequired', field: "metadata.annotations[kubernetes.io/service-account.name]", message: 'Required value' });
  }
  return errs;
}

export const secretStrategy: Strategy = {
  prepareForCreate: mergeStringData,
  prepareForUpdate: (obj) => mergeStringData(obj),
  validate,
  validateUpdate(obj, old) {
    const errs = validate(obj);
    if (obj.type !== old.type) errs.push({ reason: 'FieldValueInvalid', field: 'type', message: `Invalid value: ${JSON.stringify(obj.type)}: field is immutable` });
    return errs;
  },
};

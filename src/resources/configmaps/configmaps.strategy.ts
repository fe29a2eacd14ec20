/** ConfigMap rules: config keys in data and binaryData, no key in both, total size <= 1 MiB. */
import { MAX_DATA_SIZE, isBase64, tooLong, validateConfigKey } from '../../api/config-data.js';
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../errors/api-error.js';
import type { Strategy } from '../../registry/types.js';

function validate(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = (obj.data ?? {}) as Record<string, string>;
  const binary = (obj.binaryData ?? {}) as Record<string, string>;
  let size = 0;
  for (const [k, v] of Object.entries(data)) {
    errs.push(...validateConfigKey(`data[${k}]`, k));
    size += Buffer.byteLength(v);
  }
  for (const [k, v] of Object.entries(binary)) {
    errs.push(...validateConfigKey(`binaryData[${k}]`, k));
    if (k in data) errs.push({ reason: 'FieldValueInvalid', field: `binaryData[${k}]`, message: `Invalid value: ${JSON.stringify(k)}: duplicate of key present in data` });
    if (!isBase64(v)) errs.push({ reason: 'FieldValueInvalid', field: `binaryData[${k}]`, message: `Invalid value: ${JSON.stringify(k)}: must be base64 encoded` });
    else size += Buffer.from(v, 'base64').length;
  }
  if (size > MAX_DATA_SIZE) errs.push(tooLong(''));
  return errs;
}

export const configMapStrategy: Strategy = {
  validate,
  validateUpdate: (obj) => validate(obj),
};

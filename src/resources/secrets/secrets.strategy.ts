/**
 * Secret strategy (upstream pkg/registry/core/secret/strategy.go): `stringData` is merged into
 * `data` (base64) and dropped, as upstream's v1 conversion does; the type defaults to Opaque
 * (SetDefaults_Secret). The rules are in secrets.validation.ts.
 */
import type { Strategy } from '../../registry/types.js';
import type { Secret } from './secrets.schema.js';
import { validateSecret, validateSecretUpdate } from './secrets.validation.js';

function mergeStringData(obj: Secret): void {
  const stringData = obj.stringData;
  if (stringData) {
    const data = { ...(obj.data ?? {}) };
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v)).toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
  obj.type ??= 'Opaque';
}

export const secretStrategy: Strategy<Secret> = {
  prepareForCreate: mergeStringData,
  prepareForUpdate: (obj) => mergeStringData(obj),
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
};

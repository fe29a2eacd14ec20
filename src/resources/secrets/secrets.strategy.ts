/**
 * Secret strategy (upstream pkg/registry/core/secret/strategy.go): `stringData` is merged into
 * `data` (base64) and dropped, as upstream's v1 conversion does; the type defaults to Opaque
 * (SetDefaults_Secret). The rules are in secrets.validation.ts.
 */
import type { ApiObject } from '../../api/object.js';
import type { Strategy } from '../../registry/types.js';
import { validateSecret, validateSecretUpdate } from './secrets.validation.js';

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

export const secretStrategy: Strategy = {
  prepareForCreate: mergeStringData,
  prepareForUpdate: (obj) => mergeStringData(obj),
  validate: validateSecret,
  validateUpdate: validateSecretUpdate,
};

/** Secret (core/v1). Field selector `type` as upstream (pkg/apis/core/v1/conversion.go). */
import { secretPrinter } from './secrets.table.js';
import { secretSchema } from './secrets.schema.js';
import { defineResource } from '../define.js';
import { secretStrategy } from './secrets.strategy.js';
import { secretMessages } from './secrets.protobuf.js';

export const secrets = defineResource({
  kind: 'Secret',
  description: 'Secret holds sensitive data such as passwords, tokens or keys, base64-encoded in data.',
  protobuf: secretMessages,
  plural: 'secrets',
  namespaced: true,
  schema: secretSchema,
  printer: secretPrinter,
  strategy: secretStrategy,
  selectableFields: ['type'],
  fieldSet: (obj) => ({ type: String(obj.type ?? '') }),
});

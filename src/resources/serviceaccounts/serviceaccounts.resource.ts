/** ServiceAccount (core/v1). */
import { serviceAccountSchema } from './serviceaccounts.schema.js';
import { defineResource } from '../define.js';

export const serviceAccounts = defineResource({
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
  schema: serviceAccountSchema,
  shortNames: ['sa'],
});

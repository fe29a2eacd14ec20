/** ServiceAccount (core/v1). */
import { defineResource } from '../define.js';

export const serviceAccounts = defineResource({
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  namespaced: true,
  shortNames: ['sa'],
});

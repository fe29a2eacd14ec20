/** ServiceAccount (core/v1). */
import { serviceAccountPrinter } from './serviceaccounts.table.js';
import { serviceAccountPatch } from '../../api/core/patch-meta.js';
import { serviceAccountSchema } from './serviceaccounts.schema.js';
import { defineResource } from '../define.js';
import { serviceAccountMessages } from './serviceaccounts.protobuf.js';
import { tokenRequestMessages, tokenSubresource } from './serviceaccount-token.js';

export const serviceAccounts = defineResource({
  kind: 'ServiceAccount',
  description: 'ServiceAccount gives an identity to processes running in pods, with the secrets they may use.',
  protobuf: { ...serviceAccountMessages, ...tokenRequestMessages },
  plural: 'serviceaccounts',
  namespaced: true,
  schema: serviceAccountSchema,
  printer: serviceAccountPrinter,
  patchMeta: serviceAccountPatch,
  shortNames: ['sa'],
  subresources: [tokenSubresource],
});

/** ServiceAccount (core/v1). */
import { serviceAccountPrinter } from './serviceaccounts.table.js';
import { serviceAccountSchema } from './serviceaccounts.schema.js';
import { defineResource } from '../define.js';
import { serviceAccountMessages } from './serviceaccounts.protobuf.js';
import { mergeMessages } from '../../api/protobuf/messages.js';
import { tokenRequestMessages, tokenSubresource } from './serviceaccount-token.js';

export const serviceAccounts = defineResource({
  kind: 'ServiceAccount',
  description: 'ServiceAccount gives an identity to processes running in pods, with the secrets they may use.',
  protobuf: mergeMessages(serviceAccountMessages, { 'authentication.k8s.io/v1': tokenRequestMessages }),
  plural: 'serviceaccounts',
  namespaced: true,
  schema: serviceAccountSchema,
  printer: serviceAccountPrinter,
  shortNames: ['sa'],
  subresources: [tokenSubresource],
});

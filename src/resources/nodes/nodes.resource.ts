/** Node (core/v1, cluster-scoped), stored under upstream's special prefix `minions`. */
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';

export const nodes = defineResource({
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
  shortNames: ['no'],
  storagePrefix: 'minions',
  subresources: [statusSubresource('Node')],
  strategy: { ...keepStatusOnUpdate },
  selectableFields: ['spec.unschedulable'],
  fieldSet: (obj) => ({ 'spec.unschedulable': String(Boolean((obj.spec as { unschedulable?: boolean } | undefined)?.unschedulable)) }),
});

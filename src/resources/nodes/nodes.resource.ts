/** Node (core/v1, cluster-scoped), stored under upstream's special prefix `minions`. */
import { nodePrinter } from './nodes.table.js';
import { nodeSchema } from './nodes.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { nodeMessages } from './nodes.protobuf.js';
import { nodeProxySubresource } from './node-connection.js';
import { validateNode, validateNodeUpdate } from './nodes.validation.js';

export const nodes = defineResource({
  kind: 'Node',
  description: 'Node is a worker machine of the cluster, with its capacity, conditions and addresses.',
  protobuf: nodeMessages,
  plural: 'nodes',
  namespaced: false,
  schema: nodeSchema,
  printer: nodePrinter,
  shortNames: ['no'],
  storagePrefix: 'minions',
  subresources: [nodeProxySubresource, statusSubresource('Node')],
  strategy: {
    ...keepStatusOnUpdate,
    defaults(obj) {
      // Upstream SetDefaults_Node: externalID from the name; allocatable from capacity.
      const spec = (obj.spec ??= {});
      spec.externalID ||= obj.metadata.name;
      const status = obj.status;
      if (status?.capacity && !status.allocatable) status.allocatable = { ...status.capacity };
    },
    validate: validateNode,
    validateUpdate: validateNodeUpdate,
  },
  selectableFields: ['spec.unschedulable'],
  fieldSet: (obj) => ({ 'spec.unschedulable': String(Boolean(obj.spec?.unschedulable)) }),
});

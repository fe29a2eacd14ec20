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
    defaults(obj) {
      // Upstream SetDefaults_Node: externalID from the name; allocatable from capacity.
      const spec = (obj.spec ??= {});
      spec.externalID ||= obj.metadata.name;
      const status = obj.status;
      if (status?.capacity && !status.allocatable) status.allocatable = { ...status.capacity };
      // v1 conversion: podCIDRs is podCIDR when unset, and podCIDR its first entry.
      if (!spec.podCIDRs?.length && spec.podCIDR) spec.podCIDRs = [spec.podCIDR];
      else if (spec.podCIDRs?.length) spec.podCIDR = spec.podCIDRs[0];
    },
    prepareForCreate(obj) {
      // Upstream dropDisabledFields: configSource and status.config are dropped on create.
      if (obj.spec) delete obj.spec.configSource;
      if (obj.status) delete obj.status.config;
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate?.(obj, old);
      // ... and configSource on update unless the node already had one.
      if (obj.spec && (old.spec?.configSource ?? null) === null) delete obj.spec.configSource;
    },
    validate: validateNode,
    validateUpdate: validateNodeUpdate,
  },
  selectableFields: ['spec.unschedulable'],
  fieldSet: (obj) => ({ 'spec.unschedulable': String(Boolean(obj.spec?.unschedulable)) }),
});

/**
 * CSINode (storage.k8s.io/v1; upstream pkg/registry/storage/csinode): cluster-scoped, named
 * after its node, no short names, no status. A driver already listed cannot change; drivers
 * may be added and removed.
 */
import { defineResource } from '../define.js';
import { csiNodeMessages } from './csinodes.protobuf.js';
import { csiNodeSchema } from './csinodes.schema.js';
import { csiNodePrinter } from './csinodes.table.js';
import { validateCsiNode, validateCsiNodeUpdate } from './csinodes.validation.js';

export const csiNodes = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  description:
    'CSINode holds information about all CSI drivers installed on a node; it has the name of its node and is usually written by the kubelet.',
  plural: 'csinodes',
  namespaced: false,
  schema: csiNodeSchema,
  printer: csiNodePrinter,
  protobuf: csiNodeMessages,
  strategy: { validate: validateCsiNode, validateUpdate: validateCsiNodeUpdate },
});

/** CSINode fields (k8s.io/api storage/v1 types.go, 1.33). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, mergedList, obj, reqObj, str, strList } from '../../api/core/schema-kit.js';

const csiNodeDriver = reqObj({
  allocatable: obj({
    count: int.describe(
      'The most unique volumes of the driver a node can use (attached and mounted counts once); unset: unbounded.',
    ),
  }).describe('The volume resources of the node available for scheduling.'),
  name: str.describe('The name of the CSI driver (the name its GetPluginName() call returns).'),
  nodeID: str.describe('The ID of the node from the driver’s point of view. Required.'),
  topologyKeys: strList.describe(
    'Topology keys the driver supports (e.g. "company.com/zone"); the kubelet exposes them as node labels.',
  ),
});

export const csiNodeSchema = kindSchema({
  spec: obj({
    drivers: mergedList(csiNodeDriver, { key: 'name' }).describe(
      'Every CSI driver installed on the node; empty once all are uninstalled.',
    ),
  }).describe('The CSI drivers of the node.'),
});

/** A CSINode as its schema describes it. */
export type CSINode = KindObject<typeof csiNodeSchema>;

/** Node fields (with the spec's agentEndpoint / agentVersion / proxyVersion names). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  bool,
  int,
  list,
  mergedList,
  obj,
  objectReference,
  quantityMap,
  reqObj,
  reqStr,
  str,
  strList,
  time,
} from '../../api/core/schema-kit.js';

export const nodeSchema = kindSchema({
  spec: obj({
    configSource: obj({ apiVersion: str, configMapRef: obj(objectReference), kind: str }).describe(
      'Where the node agent reads its dynamic configuration from (a ConfigMap).',
    ),
    externalID: str.describe("Deprecated: the node's id in the cloud provider; use providerID."),
    podCIDR: str.describe("IP range assigned to the node's pods."),
    providerID: str.describe("The node's id in the cloud provider: <provider>://<id>."),
    taints: list(reqObj({ effect: reqStr, key: reqStr, timeAdded: time, value: str })).describe(
      'Taints repelling pods that do not tolerate them (effects NoSchedule, PreferNoSchedule, NoExecute).',
    ),
    unschedulable: bool.describe('Keep new pods off the node (kubectl cordon sets it).'),
  }),
  status: obj({
    addresses: mergedList(reqObj({ address: reqStr, type: reqStr }), { key: 'type' }).describe(
      'Addresses of the node: Hostname, ExternalIP, InternalIP, ...',
    ),
    allocatable: quantityMap.describe('Resources available to pods (capacity minus what the system reserves).'),
    capacity: quantityMap.describe('Total resources of the node: cpu, memory, pods, ...'),
    conditions: mergedList(
      reqObj({
        lastHeartbeatTime: time,
        lastTransitionTime: time,
        message: str,
        reason: str,
        status: reqStr,
        type: reqStr,
      }),
      { key: 'type' },
    ),
    daemonEndpoints: obj({ agentEndpoint: obj({ Port: int }) }),
    images: list(reqObj({ names: strList, sizeBytes: int })),
    nodeInfo: obj({
      architecture: str,
      bootID: str,
      containerRuntimeVersion: str,
      kernelVersion: str,
      proxyVersion: str,
      agentVersion: str,
      machineID: str,
      operatingSystem: str,
      osImage: str,
      systemUUID: str,
    }),
    phase: str,
    volumesAttached: list(reqObj({ devicePath: reqStr, name: reqStr })),
    volumesInUse: strList,
  }),
});

/** A Node as its schema describes it (for its strategy, printer and the node agent's address). */
export type Node = KindObject<typeof nodeSchema>;

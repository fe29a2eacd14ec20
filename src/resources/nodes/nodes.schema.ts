/** Node fields (with the spec's agentEndpoint / agentVersion / proxyVersion names). */
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, list, obj, objectReference, quantityMap, reqObj, reqStr, str, strList, time } from '../../api/core/schema-kit.js';

export const nodeSchema = kindSchema({
  spec: obj({
    configSource: obj({ apiVersion: str, configMapRef: obj(objectReference), kind: str }),
    externalID: str,
    podCIDR: str,
    providerID: str,
    taints: list(reqObj({ effect: reqStr, key: reqStr, timeAdded: time, value: str })),
    unschedulable: bool,
  }),
  status: obj({
    addresses: list(reqObj({ address: reqStr, type: reqStr })),
    allocatable: quantityMap,
    capacity: quantityMap,
    conditions: list(reqObj({ lastHeartbeatTime: time, lastTransitionTime: time, message: str, reason: str, status: reqStr, type: reqStr })),
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

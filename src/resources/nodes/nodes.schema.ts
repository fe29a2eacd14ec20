/**
 * Node fields (with the spec's agentEndpoint / agentVersion / proxyVersion names) and those
 * upstream has added up to 1.33 (podCIDRs, the 1.33 shape of configSource, config, features,
 * runtimeHandlers, nodeInfo.swap).
 */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  bool,
  int,
  list,
  mergedList,
  obj,
  quantityMap,
  reqObj,
  reqStr,
  setList,
  str,
  strList,
  time,
} from '../../api/core/schema-kit.js';

/** NodeConfigSource: a ConfigMap with a KubeletConfiguration (DynamicKubeletConfig, removed in 1.24). */
const configSource = obj({
  configMap: obj({
    kubeletConfigKey: reqStr.describe('Key of the ConfigMap holding the KubeletConfiguration.'),
    name: reqStr.describe('Name of the ConfigMap.'),
    namespace: reqStr.describe('Namespace of the ConfigMap.'),
    resourceVersion: str.describe('resourceVersion of the ConfigMap (status only).'),
    uid: str.describe('uid of the ConfigMap (status only).'),
  }).describe('A ConfigMap holding the KubeletConfiguration.'),
});

export const nodeSchema = kindSchema({
  spec: obj({
    configSource: configSource.describe(
      'Deprecated (DynamicKubeletConfig was removed in 1.24): dropped on create, and on update unless the node already had it.',
    ),
    externalID: str.describe("Deprecated: the node's id in the cloud provider; use providerID."),
    podCIDR: str.describe("IP range assigned to the node's pods."),
    podCIDRs: setList(z.string()).describe(
      "IP ranges assigned to the node's pods, at most one per IP family; the first is podCIDR.",
    ),
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
    config: obj({
      active: configSource.describe('Configuration the node agent uses.'),
      assigned: configSource.describe('Configuration the node agent will try to use.'),
      error: str.describe('Problem reconciling spec.configSource with the active configuration.'),
      lastKnownGood: configSource.describe('Configuration the node agent falls back to.'),
    }).describe('Status of the dynamic configuration (deprecated; dropped on create).'),
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
    features: obj({
      supplementalGroupsPolicy: bool.describe(
        'Whether the runtime supports supplementalGroupsPolicy and ContainerUser.',
      ),
    }).describe('Features the container runtime implements.'),
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
      swap: obj({ capacity: int.describe('Total swap memory in bytes.') }).describe('Swap memory of the node.'),
      systemUUID: str,
    }),
    phase: str,
    runtimeHandlers: list(
      reqObj({
        features: obj({
          recursiveReadOnlyMounts: bool.describe('Whether the handler supports recursive read-only mounts.'),
          userNamespaces: bool.describe('Whether the handler supports user namespaces, volumes included.'),
        }).describe('Features the handler supports.'),
        name: str.describe('Name of the runtime handler; empty for the default one.'),
      }),
    ).describe('Runtime handlers the node offers.'),
    volumesAttached: list(reqObj({ devicePath: reqStr, name: reqStr })),
    volumesInUse: strList,
  }),
});

/** A Node as its schema describes it (for its strategy, printer and the node agent's address). */
export type Node = KindObject<typeof nodeSchema>;

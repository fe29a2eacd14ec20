/**
 * Protobuf messages of Node (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 * agentEndpoint, agentVersion and proxyVersion are the spec's names for upstream's kubeletEndpoint,
 * kubeletVersion and kubeProxyVersion (same numbers). configSource has its 1.33 shape
 * (configMap = 2; 1.10's configMapRef = 1 is gone upstream).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const nodeMessages: ProtoMessages = {
  v1: {
    ...listMessage('Node'),
    AttachedVolume: 'name=1! devicePath=2!',
    ConfigMapNodeConfigSource: 'namespace=1! name=2! uid=3 resourceVersion=4 kubeletConfigKey=5!',
    ContainerImage: 'names=1:[]string sizeBytes=2:int64',
    DaemonEndpoint: 'Port=1:int32!',
    Node: 'metadata=1:ObjectMeta spec=2:NodeSpec status=3:NodeStatus',
    NodeAddress: 'type=1! address=2!',
    NodeCondition: 'type=1! status=2! lastHeartbeatTime=3:Time lastTransitionTime=4:Time reason=5 message=6',
    NodeConfigSource: 'configMap=2:ConfigMapNodeConfigSource',
    NodeConfigStatus: 'assigned=1:NodeConfigSource active=2:NodeConfigSource lastKnownGood=3:NodeConfigSource error=4',
    NodeDaemonEndpoints: 'agentEndpoint=1:DaemonEndpoint',
    NodeFeatures: 'supplementalGroupsPolicy=1:bool!',
    NodeRuntimeHandler: 'name=1! features=2:NodeRuntimeHandlerFeatures',
    NodeRuntimeHandlerFeatures: 'recursiveReadOnlyMounts=1:bool! userNamespaces=2:bool!',
    NodeSpec:
      'podCIDR=1 externalID=2 providerID=3 unschedulable=4:bool taints=5:[]Taint configSource=6:NodeConfigSource podCIDRs=7:[]string',
    NodeStatus:
      'capacity=1:map<Quantity> allocatable=2:map<Quantity> phase=3 conditions=4:[]NodeCondition addresses=5:[]NodeAddress daemonEndpoints=6:NodeDaemonEndpoints nodeInfo=7:NodeSystemInfo images=8:[]ContainerImage volumesInUse=9:[]string volumesAttached=10:[]AttachedVolume config=11:NodeConfigStatus runtimeHandlers=12:[]NodeRuntimeHandler features=13:NodeFeatures',
    NodeSwapStatus: 'capacity=1:int64!',
    NodeSystemInfo:
      'machineID=1! systemUUID=2! bootID=3! kernelVersion=4! osImage=5! containerRuntimeVersion=6! agentVersion=7! proxyVersion=8! operatingSystem=9! architecture=10! swap=11:NodeSwapStatus',
    Taint: 'key=1! value=2 effect=3! timeAdded=4:Time',
  },
};

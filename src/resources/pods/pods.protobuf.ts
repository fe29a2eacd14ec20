/**
 * Protobuf messages of Pod (notation in api/protobuf/messages.ts; numbers from upstream's
 * k8s.io/api core/v1 generated.proto).
 */
import { listMessage, type ProtoMessages } from '../../api/protobuf/messages.js';

export const podMessages: ProtoMessages = {
  v1: {
    ...listMessage('Pod'),
    ContainerState:
      'waiting=1:ContainerStateWaiting running=2:ContainerStateRunning terminated=3:ContainerStateTerminated',
    ContainerStateRunning: 'startedAt=1:Time',
    ContainerStateTerminated:
      'exitCode=1:int32! signal=2:int32 reason=3 message=4 startedAt=5:Time finishedAt=6:Time containerID=7',
    ContainerStateWaiting: 'reason=1 message=2',
    ContainerStatus:
      'name=1! state=2:ContainerState lastState=3:ContainerState ready=4:bool! restartCount=5:int32! image=6! imageID=7! containerID=8 started=9:bool! allocatedResources=10:map<Quantity> resources=11:ResourceRequirements volumeMounts=12:[]VolumeMountStatus user=13:ContainerUser allocatedResourcesStatus=14:[]ResourceStatus stopSignal=15!',
    ContainerUser: 'linux=1:LinuxContainerUser',
    HostIP: 'ip=1!',
    LinuxContainerUser: 'uid=1:int64! gid=2:int64! supplementalGroups=3:[]int64',
    Pod: 'metadata=1:ObjectMeta spec=2:PodSpec status=3:PodStatus',
    PodCondition:
      'type=1! status=2! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5 message=6 observedGeneration=7:int64',
    PodIP: 'ip=1!',
    PodResourceClaimStatus: 'name=1! resourceClaimName=2!',
    PodStatus:
      'phase=1 conditions=2:[]PodCondition message=3 reason=4 hostIP=5 podIP=6 startTime=7:Time containerStatuses=8:[]ContainerStatus qosClass=9 initContainerStatuses=10:[]ContainerStatus nominatedNodeName=11 podIPs=12:[]PodIP ephemeralContainerStatuses=13:[]ContainerStatus resize=14 resourceClaimStatuses=15:[]PodResourceClaimStatus hostIPs=16:[]HostIP observedGeneration=17:int64',
    ResourceHealth: 'resourceID=1! health=2',
    ResourceStatus: 'name=1! resources=2:[]ResourceHealth',
    VolumeMountStatus: 'name=1! mountPath=2! readOnly=3:bool recursiveReadOnly=4!',
  },
};

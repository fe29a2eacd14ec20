/**
 * Protobuf messages of PodSecurityPolicy (notation in api/protobuf/messages.ts; numbers from
 * upstream's k8s.io/api policy/v1beta1 generated.proto of 1.10, which extensions/v1beta1
 * shares). Fields without `omitempty` and pointers keep their zero value.
 */
import { inVersions, listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

const MESSAGES: MessageSet = {
  ...listMessage('PodSecurityPolicy'),
  PodSecurityPolicy: 'metadata=1:ObjectMeta spec=2:PodSecurityPolicySpec',
  PodSecurityPolicySpec:
    'privileged=1:bool defaultAddCapabilities=2:[]string requiredDropCapabilities=3:[]string allowedCapabilities=4:[]string ' +
    'volumes=5:[]string hostNetwork=6:bool hostPorts=7:[]HostPortRange hostPID=8:bool hostIPC=9:bool ' +
    'seLinux=10:SELinuxStrategyOptions! runAsUser=11:RunAsUserStrategyOptions! supplementalGroups=12:SupplementalGroupsStrategyOptions! ' +
    'fsGroup=13:FSGroupStrategyOptions! readOnlyRootFilesystem=14:bool defaultAllowPrivilegeEscalation=15:bool! ' +
    'allowPrivilegeEscalation=16:bool! allowedHostPaths=17:[]AllowedHostPath allowedFlexVolumes=18:[]AllowedFlexVolume',
  AllowedFlexVolume: 'driver=1!',
  AllowedHostPath: 'pathPrefix=1',
  HostPortRange: 'min=1:int32! max=2:int32!',
  IDRange: 'min=1:int64! max=2:int64!',
  SELinuxStrategyOptions: 'rule=1! seLinuxOptions=2:SELinuxOptions',
  RunAsUserStrategyOptions: 'rule=1! ranges=2:[]IDRange',
  SupplementalGroupsStrategyOptions: 'rule=1 ranges=2:[]IDRange',
  FSGroupStrategyOptions: 'rule=1 ranges=2:[]IDRange',
};

export const podSecurityPolicyMessages: ProtoMessages = inVersions(MESSAGES, 'policy/v1beta1', 'extensions/v1beta1');

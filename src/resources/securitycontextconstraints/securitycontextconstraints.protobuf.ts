/**
 * Protobuf messages of SecurityContextConstraints (notation in api/protobuf/messages.ts; numbers from upstream's
 * openshift/api security/v1 generated.proto). Its booleans are not omitempty upstream: a false is kept.
 */
import { inVersions, listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';

const SCC_MESSAGES: MessageSet = {
  ...listMessage('SecurityContextConstraints'),
  AllowedFlexVolume: 'driver=1!',
  FSGroupStrategyOptions: 'type=1 ranges=2:[]IDRange',
  IDRange: 'min=1:int64 max=2:int64',
  RunAsUserStrategyOptions: 'type=1 uid=2:int64! uidRangeMin=3:int64! uidRangeMax=4:int64!',
  SELinuxContextStrategyOptions: 'type=1 seLinuxOptions=2:SELinuxOptions',
  SecurityContextConstraints:
    'metadata=1:ObjectMeta priority=2:int32! allowPrivilegedContainer=3:bool! defaultAddCapabilities=4:[]string requiredDropCapabilities=5:[]string allowedCapabilities=6:[]string allowHostDirVolumePlugin=7:bool! volumes=8:[]string allowHostNetwork=9:bool! allowHostPorts=10:bool! allowHostPID=11:bool! allowHostIPC=12:bool! seLinuxContext=13:SELinuxContextStrategyOptions runAsUser=14:RunAsUserStrategyOptions supplementalGroups=15:SupplementalGroupsStrategyOptions fsGroup=16:FSGroupStrategyOptions readOnlyRootFilesystem=17:bool! users=18:[]string groups=19:[]string seccompProfiles=20:[]string allowedFlexVolumes=21:[]AllowedFlexVolume',
  SupplementalGroupsStrategyOptions: 'type=1 ranges=2:[]IDRange',
};

/** The messages under both versions the kind is served in: core v1 (deprecated) and security.platform.io/v1. */
export const securityContextConstraintsMessages: ProtoMessages = inVersions(
  SCC_MESSAGES,
  'v1',
  'security.platform.io/v1',
);

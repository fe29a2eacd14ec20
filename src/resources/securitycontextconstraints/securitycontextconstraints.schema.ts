/** SecurityContextConstraints fields: top level, no spec (openshift/api security/v1). */
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, list, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';

const ranges = list(reqObj({ max: int, min: int }));

export const securityContextConstraintsSchema = kindSchema({
  allowHostDirVolumePlugin: bool,
  allowHostIPC: bool,
  allowHostNetwork: bool,
  allowHostPID: bool,
  allowHostPorts: bool,
  allowPrivilegedContainer: bool,
  allowedCapabilities: strList,
  allowedFlexVolumes: list(reqObj({ driver: reqStr })),
  defaultAddCapabilities: strList,
  fsGroup: obj({ ranges, type: str }),
  groups: strList,
  priority: int,
  readOnlyRootFilesystem: bool,
  requiredDropCapabilities: strList,
  runAsUser: obj({ type: str, uid: int, uidRangeMax: int, uidRangeMin: int }),
  seLinuxContext: obj({ seLinuxOptions: obj({ level: str, role: str, type: str, user: str }), type: str }),
  seccompProfiles: strList,
  supplementalGroups: obj({ ranges, type: str }),
  users: strList,
  volumes: strList,
});

/** SecurityContextConstraints fields: top level, no spec (openshift/api security/v1). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, list, obj, reqObj, reqStr, str, strList } from '../../api/core/schema-kit.js';

const ranges = list(reqObj({ max: int, min: int }));

export const securityContextConstraintsSchema = kindSchema({
  allowHostDirVolumePlugin: bool.describe('Allow hostPath volumes.'),
  allowHostIPC: bool.describe("Allow pods to use the host's IPC namespace."),
  allowHostNetwork: bool.describe("Allow pods to use the host's network."),
  allowHostPID: bool.describe("Allow pods to use the host's PID namespace."),
  allowHostPorts: bool.describe('Allow containers to bind host ports.'),
  allowPrivilegedContainer: bool.describe('Allow containers to run privileged.'),
  allowedCapabilities: strList.describe("Capabilities a container may add; '*' allows all."),
  allowedFlexVolumes: list(reqObj({ driver: reqStr })).describe(
    'Flex volume drivers pods may use; empty allows all (when flexVolume is in volumes).',
  ),
  defaultAddCapabilities: strList.describe('Capabilities added to every container unless it drops them.'),
  fsGroup: obj({ ranges, type: str }).describe(
    'Strategy choosing the fsGroup of pods: MustRunAs (within ranges) or RunAsAny.',
  ),
  groups: strList.describe('Groups allowed to use these constraints.'),
  priority: int.describe('Order in which constraints are tried (higher first); unset counts as 0.'),
  readOnlyRootFilesystem: bool.describe('Force containers to run with a read-only root filesystem.'),
  requiredDropCapabilities: strList.describe('Capabilities dropped from every container; they cannot be added.'),
  runAsUser: obj({ type: str, uid: int, uidRangeMax: int, uidRangeMin: int }).describe(
    'Strategy choosing the user id containers run as: MustRunAs, MustRunAsRange, MustRunAsNonRoot or RunAsAny.',
  ),
  seLinuxContext: obj({ seLinuxOptions: obj({ level: str, role: str, type: str, user: str }), type: str }).describe(
    'Strategy choosing the SELinux context: MustRunAs or RunAsAny.',
  ),
  seccompProfiles: strList.describe("Seccomp profiles pods may use; '*' allows all."),
  supplementalGroups: obj({ ranges, type: str }).describe(
    'Strategy choosing supplemental groups: MustRunAs (within ranges) or RunAsAny.',
  ),
  users: strList.describe('Users allowed to use these constraints.'),
  volumes: strList.describe(
    "Volume plugins pods may use (configMap, emptyDir, hostPath, ...); '*' allows all, 'none' none.",
  ),
});

/** A SecurityContextConstraints object as its schema describes it (for its strategy and printer). */
export type SecurityContextConstraints = KindObject<typeof securityContextConstraintsSchema>;

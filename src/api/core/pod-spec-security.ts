/**
 * The security contexts of a pod and of its containers (k8s.io/api core/v1 PodSecurityContext,
 * SecurityContext, SELinuxOptions, SeccompProfile, AppArmorProfile,
 * WindowsSecurityContextOptions, Sysctl), with the fields upstream has added up to 1.33.
 */
import { z } from 'zod';
import { bool, described, int, list, obj, reqObj, reqStr, str, strList } from './schema-kit.js';

export const seLinuxOptions = obj(
  described(
    { level: str, role: str, type: str, user: str },
    {
      level: 'SELinux level label.',
      role: 'SELinux role label.',
      type: 'SELinux type label.',
      user: 'SELinux user label.',
    },
  ),
).describe('SELinux context applied to the container(s); a random one is chosen by the runtime when unset.');

/** SeccompProfile (a union on `type`). */
export const seccompProfile = obj({
  localhostProfile: str.describe(
    "Profile file on the node, relative to the kubelet's seccomp directory; set only (and then required) for type Localhost.",
  ),
  type: reqStr.describe('Kind of profile: Localhost, RuntimeDefault or Unconfined.'),
}).describe('Seccomp options: the runtime default, a profile file on the node, or none (Unconfined).');

/** AppArmorProfile (a union on `type`). */
export const appArmorProfile = obj({
  localhostProfile: str.describe(
    'Name of a profile loaded on the node; set only (and then required) for type Localhost.',
  ),
  type: reqStr.describe('Kind of profile: Localhost, RuntimeDefault or Unconfined.'),
}).describe('AppArmor options: the runtime default, a profile loaded on the node, or none (Unconfined).');

export const windowsOptions = obj({
  gmsaCredentialSpec: str.describe('Contents of the GMSA credential spec (inlined by the GMSA admission webhook).'),
  gmsaCredentialSpecName: str.describe('Name of the GMSA credential spec to use.'),
  hostProcess: bool.describe("Run the container as a 'Host Process' container (needs hostNetwork)."),
  runAsUserName: str.describe('Windows user name the entrypoint runs as.'),
}).describe('Windows-specific settings; refused for pods whose os is linux.');

const runAsGroup = int.describe("Group id the entrypoint runs as; the runtime's default when unset.");
const procMount = str.describe(
  'Kind of /proc mount: Default (read-only and masked paths) or Unmasked (needs hostUsers false).',
);

/** SecurityContext (a container's). */
export const containerSecurityContext = obj({
  allowPrivilegeEscalation: bool.describe(
    'Whether a process may gain more privileges than its parent (no_new_privs off). Always true when privileged or with CAP_SYS_ADMIN.',
  ),
  appArmorProfile: appArmorProfile.describe("AppArmor options of the container; override the pod's."),
  capabilities: obj({
    add: strList.describe('Capabilities to add.'),
    drop: strList.describe('Capabilities to drop.'),
  }).describe('POSIX capabilities to add to or drop from the runtime default set.'),
  privileged: bool.describe('Run the container privileged: its processes are root on the host (default false).'),
  procMount,
  readOnlyRootFilesystem: bool.describe("Mount the container's root filesystem read-only (default false)."),
  runAsGroup,
  runAsNonRoot: bool.describe('Refuse to start the container if its image would run as uid 0.'),
  runAsUser: int.describe("User id the entrypoint runs as; the image's default when unset."),
  seLinuxOptions,
  seccompProfile: seccompProfile.describe("Seccomp options of the container; override the pod's."),
  windowsOptions,
}).describe("Security options the container runs with; they override the pod's securityContext.");

/** PodSecurityContext. */
export const podSecurityContext = obj({
  appArmorProfile: appArmorProfile.describe('AppArmor options of the containers of the pod.'),
  fsGroup: int.describe('Group id that owns supporting volumes and is added to every container; new files get it too.'),
  fsGroupChangePolicy: str.describe(
    'When ownership and permissions of volumes are changed to fsGroup: OnRootMismatch or Always (the default).',
  ),
  runAsGroup,
  runAsNonRoot: bool.describe('Refuse to start containers whose image would run as uid 0.'),
  runAsUser: int.describe("User id containers' entrypoints run as, unless a container sets its own."),
  seLinuxChangePolicy: str.describe(
    "How the SELinux label is applied to the pod's volumes: Recursive (relabel every file) or MountOption.",
  ),
  seLinuxOptions,
  seccompProfile: seccompProfile.describe('Seccomp options of the containers of the pod.'),
  supplementalGroups: list(z.number().int()).describe(
    "Group ids added to each container's first process, besides its primary group.",
  ),
  supplementalGroupsPolicy: str.describe(
    "How supplemental groups are computed: Merge (the default: with the image's /etc/group) or Strict.",
  ),
  sysctls: list(
    reqObj({ name: reqStr.describe('Name of the sysctl.'), value: reqStr.describe('Value to set.') }),
  ).describe('Namespaced sysctls set for the pod.'),
  windowsOptions,
}).describe('Pod-level security attributes and common container settings.');

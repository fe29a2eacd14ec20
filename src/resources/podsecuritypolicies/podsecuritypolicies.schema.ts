/**
 * PodSecurityPolicy fields of 1.10 (k8s.io/api policy/v1beta1 and extensions/v1beta1 types.go
 * at kubernetes-1.10.0, which are the same). PodSecurityPolicy was removed upstream in 1.25;
 * it is served here as the spec's 1.10 groups have it.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, list, obj, reqObj, str, strList } from '../../api/core/schema-kit.js';

const ranges = list(
  reqObj({
    max: int.describe('End of the range, inclusive.'),
    min: int.describe('Start of the range, inclusive.'),
  }),
);

/** A strategy with a rule and ID ranges (run as user, fsGroup, supplemental groups). */
const idStrategy = (rules: string, what: string) =>
  obj({
    ranges: ranges.describe(`Allowed ranges of ${what}; for MustRunAs, the first range's min is the default.`),
    rule: str.describe(`The strategy: ${rules}.`),
  });

export const podSecurityPolicySchema = kindSchema({
  spec: obj({
    allowPrivilegeEscalation: bool.describe(
      'Whether a pod may ask to allow privilege escalation (default true, as policies before the field were).',
    ),
    allowedCapabilities: strList.describe(
      'Capabilities pods may add beyond the defaults; "*" allows any. Not also in requiredDropCapabilities.',
    ),
    allowedFlexVolumes: list(reqObj({ driver: str.describe('Name of the Flexvolume driver.') })).describe(
      'Flexvolume drivers allowed; empty or nil: any (when flexVolume is in volumes).',
    ),
    allowedHostPaths: list(
      reqObj({
        pathPrefix: str.describe(
          'Prefix a host path must have, by path segments: "/foo" allows "/foo", "/foo/" and "/foo/bar", not "/food".',
        ),
      }),
    ).describe('Host paths hostPath volumes may use; empty: any.'),
    defaultAddCapabilities: strList.describe(
      'Capabilities added to every container unless it drops them; not also in requiredDropCapabilities.',
    ),
    defaultAllowPrivilegeEscalation: bool.describe(
      'Default for allowPrivilegeEscalation of a container that does not set it; true needs allowPrivilegeEscalation.',
    ),
    fsGroup: idStrategy('MustRunAs or RunAsAny', 'fsGroup IDs').describe('What fsGroup a pod may have.'),
    hostIPC: bool.describe('Whether pods may use the host IPC namespace.'),
    hostNetwork: bool.describe('Whether pods may use the node network namespace.'),
    hostPID: bool.describe('Whether pods may use the host process ID namespace.'),
    hostPorts: list(
      reqObj({
        max: int.describe('End of the range, inclusive.'),
        min: int.describe('Start of the range, inclusive.'),
      }),
    ).describe('Host port ranges pods may use.'),
    privileged: bool.describe('Whether pods may run privileged containers.'),
    readOnlyRootFilesystem: bool.describe('Whether containers must run with a read-only root filesystem.'),
    requiredDropCapabilities: strList.describe('Capabilities every container must drop; they cannot be added.'),
    runAsUser: idStrategy('MustRunAs, MustRunAsNonRoot or RunAsAny', 'user IDs').describe(
      'What user IDs containers may run as.',
    ),
    seLinux: obj({
      rule: str.describe('The strategy: MustRunAs or RunAsAny.'),
      seLinuxOptions: obj({
        level: str.describe('SELinux level label.'),
        role: str.describe('SELinux role label.'),
        type: str.describe('SELinux type label.'),
        user: str.describe('SELinux user label.'),
      }).describe('The SELinux context required with MustRunAs.'),
    }).describe('What SELinux context containers may run with.'),
    supplementalGroups: idStrategy('MustRunAs or RunAsAny', 'supplemental group IDs').describe(
      'What supplemental groups a pod may have.',
    ),
    volumes: strList.describe('Volume types allowed (emptyDir, secret, hostPath, ...); "*" allows all.'),
  }).describe('What pods admitted under this policy may do.'),
});

/** A PodSecurityPolicy as its schema describes it. */
export type PodSecurityPolicy = KindObject<typeof podSecurityPolicySchema>;

/** One case per rule of docs/validation/podsecuritypolicies.md (PodSecurityPolicy, policy and extensions v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import { invalidValue, merge, required, unsupported, validationSuite, type Call } from '../helpers/validation-cases.js';
import { FS_TYPES } from '../../src/resources/podsecuritypolicies/podsecuritypolicies.validation.js';

const srv = useTestServer();
const PSPS = '/apis/policy/v1beta1/podsecuritypolicies';
const EXT = '/apis/extensions/v1beta1/podsecuritypolicies';
const RULES = {
  seLinux: { rule: 'RunAsAny' },
  runAsUser: { rule: 'RunAsAny' },
  supplementalGroups: { rule: 'RunAsAny' },
  fsGroup: { rule: 'RunAsAny' },
};
const psp = (name: string, spec: object, annotations?: object, at = PSPS): Call => [
  'POST',
  at,
  { metadata: { name, ...(annotations ? { annotations } : {}) }, spec: { ...RULES, ...spec } },
];
const annotated = (name: string, annotations: object): Call => psp(name, {}, annotations);
const key = (k: string) => `metadata.annotations[${k}]`;
const RANGE = { rule: 'MustRunAs', ranges: [{ min: 1, max: 10 }] };
const SYSCTL = '([a-z0-9]([-_a-z0-9]*[a-z0-9])?\\.)*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]';

validationSuite(
  'PodSecurityPolicy validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 runAsUser rule MustRunAs, MustRunAsNonRoot or RunAsAny',
      call: psp('vpsp-1', { runAsUser: { rule: 'Root' } }),
      cause: unsupported('spec.runAsUser.rule', 'Root', ['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny']),
    },
    {
      rule: '2 seLinux rule MustRunAs or RunAsAny',
      call: psp('vpsp-2', { seLinux: {} }),
      cause: unsupported('spec.seLinux.rule', '', ['MustRunAs', 'RunAsAny']),
    },
    {
      rule: '3 supplementalGroups rule MustRunAs or RunAsAny',
      call: psp('vpsp-3', { supplementalGroups: { rule: 'MayRunAs' } }),
      cause: unsupported('spec.supplementalGroups.rule', 'MayRunAs', ['MustRunAs', 'RunAsAny']),
    },
    {
      rule: '4 fsGroup rule MustRunAs or RunAsAny',
      call: psp('vpsp-4', { fsGroup: { rule: 'Any' } }),
      cause: unsupported('spec.fsGroup.rule', 'Any', ['MustRunAs', 'RunAsAny']),
    },
    {
      rule: '5 ID range min not negative',
      call: psp('vpsp-5', { runAsUser: { rule: 'MustRunAs', ranges: [{ min: -1, max: 10 }] } }),
      cause: invalidValue('spec.runAsUser.ranges[0].min', '-1', 'min cannot be negative'),
    },
    {
      rule: '6 ID range max not negative',
      call: psp('vpsp-6', { fsGroup: { rule: 'MustRunAs', ranges: [{ min: -5, max: -1 }] } }),
      cause: invalidValue('spec.fsGroup.ranges[0].max', '-1', 'max cannot be negative'),
    },
    {
      rule: '7 ID range min at most max',
      call: psp('vpsp-7', { supplementalGroups: { rule: 'MustRunAs', ranges: [{ min: 10, max: 1 }] } }),
      cause: invalidValue('spec.supplementalGroups.ranges[0].min', '10', 'min cannot be greater than max'),
    },
    {
      rule: '8 volumes of known types',
      call: psp('vpsp-8', { volumes: ['emptyDir', 'ephemeral'] }),
      cause: unsupported('spec.volumes', 'ephemeral', FS_TYPES),
    },
    {
      rule: '9 no required drops when every capability is allowed',
      call: psp('vpsp-9', { allowedCapabilities: ['*'], requiredDropCapabilities: ['NET_RAW'] }),
      cause: invalidValue(
        'requiredDropCapabilities',
        '[]core.Capability{"NET_RAW"}',
        'must be empty when all capabilities are allowed by a wildcard',
      ),
    },
    {
      rule: '10 default-added capabilities not required drops',
      call: psp('vpsp-10', { defaultAddCapabilities: ['NET_RAW'], requiredDropCapabilities: ['NET_RAW'] }),
      cause: invalidValue(
        'defaultAddCapabilities',
        '"NET_RAW"',
        'capability is listed in defaultAddCapabilities and requiredDropCapabilities',
      ),
    },
    {
      rule: '11 allowed capabilities not required drops',
      call: psp('vpsp-11', { allowedCapabilities: ['SYS_TIME'], requiredDropCapabilities: ['SYS_TIME'] }),
      cause: invalidValue(
        'allowedCapabilities',
        '"SYS_TIME"',
        'capability is listed in allowedCapabilities and requiredDropCapabilities',
      ),
    },
    {
      rule: '12 defaultAllowPrivilegeEscalation needs allowPrivilegeEscalation',
      call: psp('vpsp-12', { defaultAllowPrivilegeEscalation: true, allowPrivilegeEscalation: false }),
      cause: invalidValue(
        'spec.defaultAllowPrivilegeEscalation',
        'true',
        'Cannot set DefaultAllowPrivilegeEscalation to true without also setting AllowPrivilegeEscalation to true',
      ),
    },
    {
      rule: '13 allowed host path prefix required',
      call: psp('vpsp-13', { allowedHostPaths: [{ pathPrefix: '' }] }),
      cause: required('spec.allowedHostPaths[0]', 'is required'),
    },
    {
      rule: "14 allowed host path without '..'",
      call: psp('vpsp-14', { allowedHostPaths: [{ pathPrefix: '/var/../etc' }] }),
      cause: invalidValue('spec.allowedHostPaths[0]', '"/var/../etc"', "must not contain '..'"),
    },
    {
      rule: '15 Flexvolume driver required',
      call: psp('vpsp-15', { allowedFlexVolumes: [{ driver: '' }] }),
      cause: required('spec.allowedFlexVolumes.allowedFlexVolumes[0].driver', 'must specify a driver'),
    },
    {
      rule: '16 default AppArmor profile runtime/default or localhost/*',
      call: annotated('vpsp-16', { 'apparmor.security.beta.kubernetes.io/defaultProfileName': 'unconfined' }),
      cause: invalidValue(
        key('apparmor.security.beta.kubernetes.io/defaultProfileName'),
        '"unconfined"',
        'invalid AppArmor profile name: "unconfined"',
      ),
    },
    {
      rule: '17 allowed AppArmor profiles runtime/default or localhost/*',
      call: annotated('vpsp-17', {
        'apparmor.security.beta.kubernetes.io/allowedProfileNames': 'runtime/default,other',
      }),
      cause: invalidValue(
        key('apparmor.security.beta.kubernetes.io/allowedProfileNames'),
        '"runtime/default,other"',
        'invalid AppArmor profile name: "other"',
      ),
    },
    {
      rule: '18 sysctl patterns',
      call: annotated('vpsp-18', { 'security.alpha.kubernetes.io/sysctls': 'kernel.shm_rmid_forced,Net.*' }),
      cause: invalidValue(
        `${key('security.alpha.kubernetes.io/sysctls')}[1]`,
        '"Net.*"',
        `must have at most 253 characters and match regex ${SYSCTL}`,
      ),
    },
    {
      rule: '19 default seccomp profile a profile',
      call: annotated('vpsp-19', { 'seccomp.security.alpha.kubernetes.io/defaultProfileName': 'default' }),
      cause: invalidValue(
        key('seccomp.security.alpha.kubernetes.io/defaultProfileName'),
        '"default"',
        'must be a valid seccomp profile',
      ),
    },
    {
      rule: '20 allowed seccomp profiles profiles or *',
      call: annotated('vpsp-20', { 'seccomp.security.alpha.kubernetes.io/allowedProfileNames': '*,localhost/../x' }),
      cause: invalidValue(
        key('seccomp.security.alpha.kubernetes.io/allowedProfileNames'),
        '"../x"',
        "must not contain '..'",
      ),
    },
    {
      rule: '21 the same rules on update',
      setup: [psp('vpsp-21', {})],
      call: ['PATCH', `${PSPS}/vpsp-21`, { spec: { fsGroup: RANGE, volumes: ['nope'] } }, merge],
      cause: unsupported('spec.volumes', 'nope', FS_TYPES),
    },
    {
      rule: '22 the same rules through extensions/v1beta1',
      call: psp('vpsp-22', { runAsUser: { rule: 'Root' } }, undefined, EXT),
      cause: unsupported('spec.runAsUser.rule', 'Root', ['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny']),
    },
  ],
  [
    psp('vpsp-ok-1', { volumes: ['*'], allowedCapabilities: ['*'] }),
    psp('vpsp-ok-2', { runAsUser: RANGE, fsGroup: RANGE, supplementalGroups: RANGE, seLinux: { rule: 'MustRunAs' } }),
    psp('vpsp-ok-3', { allowedHostPaths: [{ pathPrefix: '/var/log' }], allowedFlexVolumes: [{ driver: 'x/y' }] }),
    annotated('vpsp-ok-4', {
      'apparmor.security.beta.kubernetes.io/allowedProfileNames': 'runtime/default,localhost/p',
      'seccomp.security.alpha.kubernetes.io/allowedProfileNames': '*,docker/default,localhost/p',
      'security.alpha.kubernetes.io/sysctls': 'kernel.shm_rmid_forced,net.*',
    }),
  ],
);

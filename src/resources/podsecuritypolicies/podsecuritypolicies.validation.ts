/**
 * PodSecurityPolicy rules of upstream 1.10 (pkg/apis/extensions/validation/validation.go
 * ValidatePodSecurityPolicy / ValidatePodSecurityPolicyUpdate, where 1.10 kept them; later
 * moved to pkg/apis/policy/validation): annotations (AppArmor, sysctls, seccomp), the
 * strategies' rules and ID ranges, volumes, capabilities, privilege escalation, host paths
 * and Flexvolume drivers. Field paths are upstream's, including its two slips: the capability
 * rules report `requiredDropCapabilities` / `defaultAddCapabilities` / `allowedCapabilities`
 * without `spec.`, and a Flexvolume driver `spec.allowedFlexVolumes.allowedFlexVolumes[i].driver`.
 */
import { localDescendingPath } from '../../api/core/validation/volumes.js';
import { invalidValue, notSupported, required, type FieldError } from '../../api/validation/field-errors.js';
import { goSlice } from '../../api/validation/resources.js';
import type { PodSecurityPolicy } from './podsecuritypolicies.schema.js';

type Spec = NonNullable<PodSecurityPolicy['spec']>;
type IdStrategy = NonNullable<Spec['fsGroup']>;

const APPARMOR_DEFAULT = 'apparmor.security.beta.kubernetes.io/defaultProfileName';
const APPARMOR_ALLOWED = 'apparmor.security.beta.kubernetes.io/allowedProfileNames';
const SECCOMP_DEFAULT = 'seccomp.security.alpha.kubernetes.io/defaultProfileName';
const SECCOMP_ALLOWED = 'seccomp.security.alpha.kubernetes.io/allowedProfileNames';
const SYSCTLS = 'security.alpha.kubernetes.io/sysctls';

/** 1.10 psputil.GetAllFSTypesAsSet plus `*`, sorted as sets.String.List(). */
export const FS_TYPES = [
  '*',
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephFS',
  'cinder',
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'gitRepo',
  'glusterfs',
  'hostPath',
  'iscsi',
  'nfs',
  'persistentVolumeClaim',
  'photonPersistentDisk',
  'portworxVolume',
  'projected',
  'quobyte',
  'rbd',
  'scaleIO',
  'secret',
  'storageos',
  'vsphereVolume',
];

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_PATTERN = `(${SYSCTL_SEGMENT}\\.)*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`;

const annotationPath = (key: string) => `metadata.annotations[${key}]`;

/** 1.10 apparmor.ValidateProfileFormat. */
const appArmorProblem = (p: string): string | null =>
  !p || p === 'runtime/default' || p.startsWith('localhost/')
    ? null
    : `invalid AppArmor profile name: ${JSON.stringify(p)}`;

/** 1.10 ValidateSeccompProfile. */
function seccompProfile(p: string, field: string): FieldError[] {
  if (p === 'docker/default' || p === 'unconfined') return [];
  if (p.startsWith('localhost/')) return localDescendingPath(p.slice('localhost/'.length), field);
  return [invalidValue(field, p, 'must be a valid seccomp profile')];
}

/** Upstream ValidatePodSecurityPolicySpecificAnnotations (1.10). */
export function validatePspAnnotations(annotations: Readonly<Record<string, string>> | null | undefined): FieldError[] {
  const a = annotations ?? {};
  const errs: FieldError[] = [];
  const defaultProfile = a[APPARMOR_DEFAULT] ?? '';
  const problem = appArmorProblem(defaultProfile);
  if (problem) errs.push(invalidValue(annotationPath(APPARMOR_DEFAULT), defaultProfile, problem));
  const allowed = a[APPARMOR_ALLOWED] ?? '';
  if (allowed)
    for (const p of allowed.split(',')) {
      const bad = appArmorProblem(p);
      if (bad) errs.push(invalidValue(annotationPath(APPARMOR_ALLOWED), allowed, bad));
    }
  const sysctls = a[SYSCTLS] ?? '';
  if (sysctls)
    sysctls.split(',').forEach((s, i) => {
      if (s.length > 253 || !new RegExp(`^${SYSCTL_PATTERN}$`).test(s))
        errs.push(
          invalidValue(
            `${annotationPath(SYSCTLS)}[${i}]`,
            s,
            `must have at most 253 characters and match regex ${SYSCTL_PATTERN}`,
          ),
        );
    });
  if (a[SECCOMP_DEFAULT]) errs.push(...seccompProfile(a[SECCOMP_DEFAULT], annotationPath(SECCOMP_DEFAULT)));
  for (const p of (a[SECCOMP_ALLOWED] ?? '').split(',').filter(Boolean))
    if (p !== '*') errs.push(...seccompProfile(p, annotationPath(SECCOMP_ALLOWED)));
  return errs;
}

/** validateIDRanges for each range of a strategy. */
function idRanges(s: IdStrategy | null | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (s?.ranges ?? []).forEach((r, i) => {
    const at = `${path}.ranges[${i}]`;
    const min = r.min ?? 0;
    const max = r.max ?? 0;
    if (min < 0) errs.push(invalidValue(`${at}.min`, min, 'min cannot be negative'));
    if (max < 0) errs.push(invalidValue(`${at}.max`, max, 'max cannot be negative'));
    if (min > max) errs.push(invalidValue(`${at}.min`, min, 'min cannot be greater than max'));
  });
  return errs;
}

/** A strategy's rule among `rules` (sorted, as upstream's sets list them), then its ranges. */
function strategy(s: IdStrategy | null | undefined, path: string, rules: readonly string[]): FieldError[] {
  const rule = s?.rule ?? '';
  return [...(rules.includes(rule) ? [] : [notSupported(`${path}.rule`, rule, rules)]), ...idRanges(s, path)];
}

/** validatePSPCapsAgainstDrops: a capability both allowed (or added) and required to drop. */
function capsAgainstDrops(drops: Spec['requiredDropCapabilities'], caps: Spec['allowedCapabilities'], field: string) {
  if (!drops) return [];
  return (caps ?? [])
    .filter((c) => drops.includes(c))
    .map((c) => invalidValue(field, c, `capability is listed in ${field} and requiredDropCapabilities`));
}

/** Upstream ValidatePodSecurityPolicySpec (1.10). */
function validateSpec(spec: Spec): FieldError[] {
  const errs = [
    ...strategy(spec.runAsUser, 'spec.runAsUser', ['MustRunAs', 'MustRunAsNonRoot', 'RunAsAny']),
    ...strategy(spec.seLinux, 'spec.seLinux', ['MustRunAs', 'RunAsAny']),
    ...strategy(spec.supplementalGroups, 'spec.supplementalGroups', ['MustRunAs', 'RunAsAny']),
    ...strategy(spec.fsGroup, 'spec.fsGroup', ['MustRunAs', 'RunAsAny']),
  ];
  for (const v of spec.volumes ?? []) if (!FS_TYPES.includes(v)) errs.push(notSupported('spec.volumes', v, FS_TYPES));
  const drops = spec.requiredDropCapabilities;
  if (drops?.length && (spec.allowedCapabilities ?? []).includes('*'))
    errs.push({
      reason: 'FieldValueInvalid',
      field: 'requiredDropCapabilities',
      message: `Invalid value: ${goSlice('core.Capability', drops)}: must be empty when all capabilities are allowed by a wildcard`,
    });
  errs.push(...capsAgainstDrops(drops, spec.defaultAddCapabilities, 'defaultAddCapabilities'));
  errs.push(...capsAgainstDrops(drops, spec.allowedCapabilities, 'allowedCapabilities'));
  if (spec.defaultAllowPrivilegeEscalation === true && spec.allowPrivilegeEscalation !== true)
    errs.push(
      invalidValue(
        'spec.defaultAllowPrivilegeEscalation',
        true,
        'Cannot set DefaultAllowPrivilegeEscalation to true without also setting AllowPrivilegeEscalation to true',
      ),
    );
  for (const [i, target] of (spec.allowedHostPaths ?? []).entries()) {
    const prefix = target.pathPrefix ?? '';
    if (!prefix) {
      errs.push(required(`spec.allowedHostPaths[${i}]`, 'is required'));
      break;
    }
    if (prefix.split('/').includes('..'))
      errs.push(invalidValue(`spec.allowedHostPaths[${i}]`, prefix, "must not contain '..'"));
  }
  (spec.allowedFlexVolumes ?? []).forEach((fv, i) => {
    if (!fv.driver)
      errs.push(required(`spec.allowedFlexVolumes.allowedFlexVolumes[${i}].driver`, 'must specify a driver'));
  });
  return errs;
}

/** Upstream ValidatePodSecurityPolicy and ValidatePodSecurityPolicyUpdate (the same rules; metadata is the store's). */
export function validatePodSecurityPolicy(psp: PodSecurityPolicy): FieldError[] {
  return [...validatePspAnnotations(psp.metadata.annotations), ...validateSpec(psp.spec ?? {})];
}

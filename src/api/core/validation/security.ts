/**
 * Security contexts as upstream validates them (pkg/apis/core/validation/validation.go
 * ValidateSecurityContext, ValidatePodSecurityContext, validateHostNetwork), with 1.33's
 * seccompProfile and appArmorProfile fields (validateSeccompProfileField,
 * ValidateAppArmorProfileField). `privileged` is
 * allowed, as on an API server started with --allow-privileged.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { duplicate, invalidValue, notSupported, required, tooLong } from '../../validation/field-errors.js';
import { fieldsOf, invalidEach, isSet, isValidId, items, str, type Fields } from './strings.js';
import { localDescendingPath } from './volumes.js';

const PROFILE_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** validateSeccompProfileField (pod and container securityContext.seccompProfile). */
function seccompProfile(value: unknown, field: string): FieldError[] {
  if (!value || typeof value !== 'object') return [];
  const sp = fieldsOf(value);
  const type = str(sp.type);
  const errs: FieldError[] = [];
  if (!type) errs.push(required(`${field}.type`, 'type is required when seccompProfile is set'));
  else if (!PROFILE_TYPES.includes(type)) errs.push(notSupported(`${field}.type`, type, PROFILE_TYPES));
  if (type === 'Localhost') {
    if (!isSet(sp.localhostProfile))
      errs.push(required(`${field}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(str(sp.localhostProfile), `${field}.localhostProfile`));
  } else if (isSet(sp.localhostProfile)) {
    // Upstream prints the Go struct; we print the JSON.
    errs.push(invalidValue(`${field}.localhostProfile`, sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** ValidateAppArmorProfileField (pod and container securityContext.appArmorProfile). */
function appArmorProfile(value: unknown, field: string): FieldError[] {
  if (!value || typeof value !== 'object') return [];
  const p = fieldsOf(value);
  const type = str(p.type);
  const local = p.localhostProfile;
  const path = `${field}.localhostProfile`;
  if (type === 'Localhost') {
    if (!isSet(local)) return [required(path, 'must be set when AppArmor type is Localhost')];
    const profile = str(local);
    const errs: FieldError[] = [];
    if (profile.trim() !== profile) errs.push(invalidValue(path, profile, 'must not be padded with whitespace'));
    else if (!profile) errs.push(required(path, 'must be set when AppArmor type is Localhost'));
    if (profile.length > 4095) errs.push(tooLong(path, '', 4095));
    return errs;
  }
  if (type === 'RuntimeDefault' || type === 'Unconfined')
    return isSet(local) ? [invalidValue(path, local, 'can only be set when AppArmor type is Localhost')] : [];
  if (!type) return [required(`${field}.type`, 'type is required when appArmorProfile is set')];
  return [notSupported(`${field}.type`, type, PROFILE_TYPES)];
}

const id = (value: unknown, field: string): FieldError[] =>
  typeof value === 'number' ? invalidEach(field, value, isValidId(value)) : [];

/** Upstream ValidateSecurityContext (a container's). */
export function validateSecurityContext(sc: unknown, field: string): FieldError[] {
  if (!sc || typeof sc !== 'object') return [];
  const s = fieldsOf(sc);
  const errs = [...id(s.runAsUser, `${field}.runAsUser`), ...id(s.runAsGroup, `${field}.runAsGroup`)];
  if (s.allowPrivilegeEscalation === false) {
    if (s.privileged === true)
      errs.push(invalidValue(field, s, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    const add = fieldsOf(s.capabilities).add;
    for (const cap of Array.isArray(add) ? add : []) {
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(
          invalidValue(field, s, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'),
        );
    }
  }
  errs.push(
    ...seccompProfile(s.seccompProfile, `${field}.seccompProfile`),
    ...appArmorProfile(s.appArmorProfile, `${field}.appArmorProfile`),
  );
  return errs;
}

const oneOf = (value: unknown, field: string, supported: string[]): FieldError[] =>
  isSet(value) && !supported.includes(str(value)) ? [notSupported(field, value, supported)] : [];

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_RE = new RegExp(`^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`);
const IPC_SYSCTLS = [
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
];

/** validateSysctls and ValidateHostSysctl (names with '/' read as '.', as utilsysctl does). */
function sysctls(spec: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  items(fieldsOf(spec.securityContext).sysctls).forEach((sy, i) => {
    const path = `${field}[${i}].name`;
    const name = str(sy.name);
    if (!name) errs.push(required(path));
    else if (name.length > 253 || !SYSCTL_RE.test(name))
      errs.push(invalidValue(path, name, `must have at most 253 characters and match regex ${SYSCTL_RE.source}`));
    else if (names.has(name)) errs.push(duplicate(path, name));
    const dotted = name.replace(/\//g, '.');
    if (spec.hostNetwork === true && dotted.startsWith('net.'))
      errs.push(invalidValue(path, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && (IPC_SYSCTLS.includes(dotted) || dotted.startsWith('fs.mqueue.')))
      errs.push(invalidValue(path, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  return errs;
}

/** validateHostNetwork: with the host's network, each container port must equal its host port. */
function hostNetworkPorts(spec: Fields, field: string): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  return items(spec.containers).flatMap((c, i) =>
    items(c.ports).flatMap((p, j) =>
      (p.hostPort ?? 0) !== (p.containerPort ?? 0)
        ? [
            invalidValue(
              `${field}[${i}].ports[${j}].containerPort`,
              p.containerPort ?? 0,
              'must match `hostPort` when `hostNetwork` is true',
            ),
          ]
        : [],
    ),
  );
}

/**
 * Upstream ValidatePodSecurityContext: the host-network port rule (hostNetwork lives in the
 * internal PodSecurityContext) and the ids. `specPath` is the pod spec's path.
 */
export function validatePodSecurityContext(spec: Fields, specPath: string): FieldError[] {
  const field = `${specPath}.securityContext`;
  const sc = fieldsOf(spec.securityContext);
  return [
    ...hostNetworkPorts(spec, `${specPath}.containers`),
    ...id(sc.fsGroup, `${field}.fsGroup`),
    ...id(sc.runAsUser, `${field}.runAsUser`),
    ...id(sc.runAsGroup, `${field}.runAsGroup`),
    ...(Array.isArray(sc.supplementalGroups)
      ? sc.supplementalGroups.flatMap((g: unknown, i: number) => id(g, `${field}.supplementalGroups[${i}]`))
      : []),
    ...(spec.shareProcessNamespace === true && spec.hostPID === true
      ? [
          invalidValue(
            `${field}.shareProcessNamespace`,
            true,
            'ShareProcessNamespace and HostPID cannot both be enabled',
          ),
        ]
      : []),
    ...sysctls(spec, `${field}.sysctls`),
    ...oneOf(sc.fsGroupChangePolicy, `${field}.fsGroupChangePolicy`, ['Always', 'OnRootMismatch']),
    ...seccompProfile(sc.seccompProfile, `${field}.seccompProfile`),
    ...appArmorProfile(sc.appArmorProfile, `${field}.appArmorProfile`),
    ...oneOf(sc.supplementalGroupsPolicy, `${field}.supplementalGroupsPolicy`, ['Merge', 'Strict']),
    // SELinuxChangePolicy is on in 1.33: both values allowed.
    ...oneOf(sc.seLinuxChangePolicy, `${field}.seLinuxChangePolicy`, ['MountOption', 'Recursive']),
  ];
}

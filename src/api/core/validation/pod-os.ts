/**
 * PodSpec rules upstream added after 1.10, up to 1.33 (pkg/apis/core/validation/validation.go
 * ValidatePodSpec: validateOS, validateLinux, validateWindows, validateHostUsers,
 * validateSchedulingGates, validateReadinessGates, ValidatePreemptionPolicy, validateOverhead,
 * ValidatePriorityClassName, ValidateRuntimeClassName). Paths are upstream's, including its
 * `HostPID` / `HostIPC` spelling in the hostUsers rule. `path` is the spec's path.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { duplicate, forbidden, notSupported, required } from '../../validation/field-errors.js';
import { validateResources } from './resources.js';
import { dns1123Subdomain, fieldsOf, invalidEach, isQualifiedName, isSet, items, str, type Fields } from './strings.js';

const WINDOWS = 'cannot be set for a windows pod';
const LINUX = 'windows options cannot be set for a linux pod';

/** podshelper.VisitContainersWithPath: init, app and ephemeral containers with their paths. */
function allContainers(s: Fields, path: string): { c: Fields; path: string }[] {
  return (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap((k) =>
    items(s[k]).map((c, i) => ({ c, path: `${path}.${k}[${i}]` })),
  );
}

/** validateWindows: the Linux-only pod and container fields are refused. */
function windows(s: Fields, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const sc = fieldsOf(s.securityContext);
  const scPath = `${path}.securityContext`;
  const scFields = ['appArmorProfile', 'seLinuxOptions'] as const;
  for (const k of scFields) if (isSet(sc[k])) errs.push(forbidden(`${scPath}.${k}`, WINDOWS));
  if (isSet(s.hostUsers)) errs.push(forbidden(`${path}.hostUsers`, WINDOWS));
  if (s.hostPID === true) errs.push(forbidden(`${path}.hostPID`, WINDOWS));
  if (s.hostIPC === true) errs.push(forbidden(`${path}.hostIPC`, WINDOWS));
  for (const k of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy'] as const)
    if (isSet(sc[k])) errs.push(forbidden(`${scPath}.${k}`, WINDOWS));
  if (Array.isArray(sc.sysctls) && sc.sysctls.length) errs.push(forbidden(`${scPath}.sysctls`, WINDOWS));
  if (isSet(s.shareProcessNamespace)) errs.push(forbidden(`${path}.shareProcessNamespace`, WINDOWS));
  const late = ['runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
  for (const k of late) if (isSet(sc[k])) errs.push(forbidden(`${scPath}.${k}`, WINDOWS));
  const containerFields = [
    'appArmorProfile',
    'seLinuxOptions',
    'seccompProfile',
    'capabilities',
    'readOnlyRootFilesystem',
    'privileged',
    'allowPrivilegeEscalation',
    'procMount',
    'runAsUser',
    'runAsGroup',
  ];
  for (const { c, path: cPath } of allContainers(s, path)) {
    const csc = fieldsOf(c.securityContext);
    for (const k of containerFields) if (isSet(csc[k])) errs.push(forbidden(`${cPath}.securityContext.${k}`, WINDOWS));
  }
  return errs;
}

/** validateLinux: no windowsOptions on the pod or any container. */
function linux(s: Fields, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(fieldsOf(s.securityContext).windowsOptions))
    errs.push(forbidden(`${path}.securityContext.windowsOptions`, LINUX));
  for (const { c, path: cPath } of allContainers(s, path))
    if (isSet(fieldsOf(c.securityContext).windowsOptions))
      errs.push(forbidden(`${cPath}.securityContext.windowsOptions`, LINUX));
  return errs;
}

/** validateOS, then the rules of the operating system named. */
function os(s: Fields, path: string): FieldError[] {
  if (!isSet(s.os)) return [];
  const name = str(fieldsOf(s.os).name);
  if (!name) return [required(`${path}.os.name`, 'cannot be empty')];
  if (name === 'linux') return linux(s, path);
  if (name === 'windows') return windows(s, path);
  return [notSupported(`${path}.os`, name, ['linux', 'windows'])];
}

/** validateHostUsers: a user namespace (hostUsers false) shares none of the host's namespaces. */
function hostUsers(s: Fields, path: string): FieldError[] {
  if (s.hostUsers !== false) return [];
  const detail = 'when `pod.Spec.HostUsers` is false';
  return [
    ...(s.hostNetwork === true ? [forbidden(`${path}.hostNetwork`, detail)] : []),
    ...(s.hostPID === true ? [forbidden(`${path}.HostPID`, detail)] : []),
    ...(s.hostIPC === true ? [forbidden(`${path}.HostIPC`, detail)] : []),
  ];
}

/** validateSchedulingGates: qualified names, no duplicates (reported on the list index). */
function schedulingGates(list: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  items(list).forEach((g, i) => {
    const name = str(g.name);
    errs.push(...invalidEach(`${field}[${i}]`, name, isQualifiedName(name)));
    if (seen.has(name)) errs.push(duplicate(`${field}[${i}]`, name));
    seen.add(name);
  });
  return errs;
}

/** The PodSpec rules added after 1.10 (see the file comment), in upstream's order. */
export function validatePodSpecSince110(spec: unknown, path: string): FieldError[] {
  const s = fieldsOf(spec);
  const errs: FieldError[] = [];
  items(s.readinessGates).forEach((g, i) =>
    errs.push(
      ...invalidEach(
        `${path}.readinessGates[${i}].conditionType`,
        str(g.conditionType),
        isQualifiedName(str(g.conditionType)),
      ),
    ),
  );
  errs.push(...schedulingGates(s.schedulingGates, `${path}.schedulingGates`), ...hostUsers(s, path));
  if (str(s.priorityClassName)) errs.push(...dns1123Subdomain(str(s.priorityClassName), `${path}.priorityClassName`));
  if (isSet(s.runtimeClassName)) errs.push(...dns1123Subdomain(str(s.runtimeClassName), `${path}.runtimeClassName`));
  if (isSet(s.preemptionPolicy)) {
    const p = str(s.preemptionPolicy);
    if (!p) errs.push(required(`${path}.preemptionPolicy`));
    else if (p !== 'PreemptLowerPriority' && p !== 'Never')
      errs.push(notSupported(`${path}.preemptionPolicy`, p, ['PreemptLowerPriority', 'Never']));
  }
  // validateOverhead: the container resource rules on a limits-only requirement.
  if (isSet(s.overhead)) errs.push(...validateResources({ limits: s.overhead }, `${path}.overhead`));
  errs.push(...os(s, path));
  return errs;
}

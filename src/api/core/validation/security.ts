/**
 * Security contexts as upstream 1.10 validates them (pkg/apis/core/validation/validation.go
 * ValidateSecurityContext, ValidatePodSecurityContext, validateHostNetwork). `privileged` is
 * allowed, as on an API server started with --allow-privileged.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { invalidValue } from '../../validation/field-errors.js';
import { invalidEach, isValidId, items, type Json } from './strings.js';

const id = (value: unknown, field: string): FieldError[] => (typeof value === 'number' ? invalidEach(field, value, isValidId(value)) : []);

/** Upstream ValidateSecurityContext (a container's). */
export function validateSecurityContext(sc: unknown, field: string): FieldError[] {
  if (!sc || typeof sc !== 'object') return [];
  const s = sc as Json;
  const errs = id(s.runAsUser, `${field}.runAsUser`);
  if (s.allowPrivilegeEscalation === false) {
    if (s.privileged === true) errs.push(invalidValue(field, s, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of Array.isArray(s.capabilities?.add) ? s.capabilities.add : []) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalidValue(field, s, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return errs;
}

/** validateHostNetwork: with the host's network, each container port must equal its host port. */
function hostNetworkPorts(spec: Json, field: string): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  return items(spec.containers).flatMap((c, i) =>
    items(c.ports).flatMap((p, j) =>
      (p.hostPort ?? 0) !== (p.containerPort ?? 0) ? [invalidValue(`${field}[${i}].ports[${j}].containerPort`, p.containerPort ?? 0, 'must match `hostPort` when `hostNetwork` is true')] : [],
    ),
  );
}

/**
 * Upstream ValidatePodSecurityContext: the host-network port rule (hostNetwork lives in the
 * internal PodSecurityContext) and the ids. `specPath` is the pod spec's path.
 */
export function validatePodSecurityContext(spec: Json, specPath: string): FieldError[] {
  const field = `${specPath}.securityContext`;
  const sc = (spec.securityContext && typeof spec.securityContext === 'object' ? spec.securityContext : {}) as Json;
  return [
    ...hostNetworkPorts(spec, `${specPath}.containers`),
    ...id(sc.fsGroup, `${field}.fsGroup`),
    ...id(sc.runAsUser, `${field}.runAsUser`),
    ...(Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups.flatMap((g: unknown, i: number) => id(g, `${field}.supplementalGroups[${i}]`)) : []),
  ];
}

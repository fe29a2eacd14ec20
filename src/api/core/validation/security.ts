/**
 * Security contexts as upstream 1.10 validates them (pkg/apis/core/validation/validation.go
 * ValidateSecurityContext, ValidatePodSecurityContext, validateHostNetwork). `privileged` is
 * allowed, as on an API server started with --allow-privileged.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { invalidValue } from '../../validation/field-errors.js';
import { fieldsOf, invalidEach, isValidId, items, type Fields } from './strings.js';

const id = (value: unknown, field: string): FieldError[] =>
  typeof value === 'number' ? invalidEach(field, value, isValidId(value)) : [];

/** Upstream ValidateSecurityContext (a container's). */
export function validateSecurityContext(sc: unknown, field: string): FieldError[] {
  if (!sc || typeof sc !== 'object') return [];
  const s = fieldsOf(sc);
  const errs = id(s.runAsUser, `${field}.runAsUser`);
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
    ...(Array.isArray(sc.supplementalGroups)
      ? sc.supplementalGroups.flatMap((g: unknown, i: number) => id(g, `${field}.supplementalGroups[${i}]`))
      : []),
  ];
}

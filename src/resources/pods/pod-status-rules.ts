/**
 * What a write through `pods/{name}/status` may change, as upstream 1.33 with default feature
 * gates (pkg/apis/core/validation/validation.go ValidatePodStatusUpdate, validatePodConditions,
 * ValidateContainerStateTransition, ValidateInitContainerStateTransition,
 * validatePodResourceClaimStatuses, validatePodIPs, validateHostIPs,
 * validateContainerStatusUsers) and the status strategy's PrepareForUpdate
 * (pkg/registry/core/pod/strategy.go: the stored spec and owner references are kept, an empty
 * qosClass is backfilled). Metadata is checked by the common rules (registry/metadata.ts).
 */
import { validateDns1123Subdomain } from '../../api/names.js';
import { isIp, isQualifiedName, isValidId } from '../../api/core/validation/strings.js';
import { duplicate, forbidden, invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import type { ApiObject } from '../../api/object.js';
import { mergeMetaForSubresource } from '../define.js';
import { list, podAnnotationUpdates } from './pod-update-rules.js';
import type { Pod } from './pods.schema.js';

type PodStatus = NonNullable<Pod['status']>;
type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];
type PodSpec = Partial<NonNullable<Pod['spec']>>;

const SYSTEM_CONDITIONS = new Set(['PodScheduled', 'Ready', 'Initialized']);

/** The status subresource's merge: the stored pod with the requested status (upstream podStatusStrategy). */
export function mergePodStatus(requested: ApiObject, old: Pod): Pod {
  const status = { ...((requested.status as PodStatus | undefined) ?? {}) };
  if (!status.qosClass && old.status?.qosClass) status.qosClass = old.status.qosClass;
  return { ...old, metadata: mergeMetaForSubresource(requested, old), status };
}

/**
 * Containers that finished may not run again, unless the restart policy restarts them (Always;
 * OnFailure for a failed one; a restartable init container always).
 */
function stateTransitions(
  next: ContainerStatus[],
  prev: ContainerStatus[],
  field: string,
  restartPolicy: unknown,
  sidecars: Set<string> = new Set(),
): FieldError[] {
  if (restartPolicy === 'Always') return [];
  const errs: FieldError[] = [];
  prev.forEach((old, i) => {
    const terminated = old?.state?.terminated;
    if (!terminated) return;
    if ((terminated.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
    if (sidecars.has(old.name)) return;
    for (const cur of next)
      if (cur?.name === old.name && !cur?.state?.terminated)
        errs.push(forbidden(`${field}[${i}].state`, 'may not be transitioned to non-terminated state'));
  });
  return errs;
}

/** Every IP valid; more than one only as a dual-stack pair (validatePodIPs, validateHostIPs). */
function ips(entries: { ip?: string | null }[], field: string, type: string): FieldError[] {
  const errs: FieldError[] = [];
  entries.forEach((e, i) => {
    if (!isIp(e?.ip ?? ''))
      errs.push(
        invalidValue(`${field}[${i}]`, e?.ip ?? '', 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'),
      );
  });
  if (entries.length > 1) {
    const v6 = entries.map((e) => (e?.ip ?? '').includes(':'));
    const dual = entries.length === 2 && v6[0] !== v6[1] && errs.length === 0;
    if (!dual) {
      const printed = `[]core.${type}{${entries.map((e) => `core.${type}{IP:${JSON.stringify(e?.ip ?? '')}}`).join(', ')}}`;
      errs.push({
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: ${printed}: may specify no more than one IP for each IP family`,
      });
    }
  }
  return errs;
}

/** validateContainerStatusUsers: a Linux user's ids in range; none on a Windows pod (upstream's path has no `user`). */
function statusUsers(statuses: ContainerStatus[], field: string, os: unknown): FieldError[] {
  const errs: FieldError[] = [];
  statuses.forEach((s, i) => {
    const linux = s?.user?.linux;
    if (!linux) return;
    const path = `${field}[${i}].linux`;
    if (os === 'windows') {
      errs.push(forbidden(path, 'cannot be set for a windows pod'));
      return;
    }
    for (const m of isValidId(linux.uid ?? 0)) errs.push(invalidValue(`${path}.uid`, linux.uid, m));
    for (const m of isValidId(linux.gid ?? 0)) errs.push(invalidValue(`${path}.gid`, linux.gid, m));
    list(linux.supplementalGroups).forEach((g, j) => {
      for (const m of isValidId(g)) errs.push(invalidValue(`${path}.supplementalGroups[${j}]`, g, m));
    });
  });
  return errs;
}

/** validatePodResourceClaimStatuses: names of the spec's claims, once each; a valid claim name. */
function claimStatuses(statuses: PodStatus['resourceClaimStatuses'], spec: PodSpec): FieldError[] {
  const claims = new Set(list(spec.resourceClaims).map((c) => c?.name));
  const seen = new Set<string>();
  return list(statuses).flatMap((s, i) => {
    const path = `status.resourceClaimStatuses[${i}].name`;
    const errs: FieldError[] = [];
    if (!claims.has(s.name))
      errs.push(invalidValue(path, s.name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seen.has(s.name)) errs.push(duplicate(path, s.name));
    else seen.add(s.name);
    if (typeof s.resourceClaimName === 'string')
      for (const m of validateDns1123Subdomain(s.resourceClaimName))
        errs.push(invalidValue(path, s.resourceClaimName, m));
    return errs;
  });
}

/** Upstream ValidatePodStatusUpdate beyond ValidateObjectMetaUpdate. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldError[] {
  const next: PodStatus = pod.status ?? {};
  const prev: PodStatus = old.status ?? {};
  const spec: PodSpec = pod.spec ?? {};
  const oldSpec: PodSpec = old.spec ?? {};
  const errs = podAnnotationUpdates(pod.metadata?.annotations ?? {}, old.metadata?.annotations ?? {});
  // Upstream names the conditions under `metadata` and their type `Type`.
  list(next.conditions).forEach((c, i) => {
    if (SYSTEM_CONDITIONS.has(c?.type)) return;
    for (const m of isQualifiedName(c?.type ?? ''))
      errs.push(invalidValue(`metadata.conditions[${i}].Type`, c?.type, m));
  });
  if ((spec.nodeName ?? '') !== (oldSpec.nodeName ?? ''))
    errs.push(forbidden('status.nodeName', 'may not be changed directly'));
  const nominated = next.nominatedNodeName;
  if (typeof nominated === 'string' && nominated && nominated !== prev.nominatedNodeName)
    for (const m of validateDns1123Subdomain(nominated))
      errs.push(invalidValue('status.nominatedNodeName', nominated, m));
  if ((next.qosClass ?? '') !== (prev.qosClass ?? ''))
    errs.push(invalidValue('status.qosClass', next.qosClass ?? '', 'field is immutable'));
  const sidecars = new Set(
    list(oldSpec.initContainers)
      .filter((c) => c?.restartPolicy === 'Always')
      .map((c) => c.name),
  );
  errs.push(
    ...stateTransitions(
      list(next.containerStatuses),
      list(prev.containerStatuses),
      'status.containerStatuses',
      oldSpec.restartPolicy,
    ),
    ...stateTransitions(
      list(next.initContainerStatuses),
      list(prev.initContainerStatuses),
      'status.initContainerStatuses',
      oldSpec.restartPolicy,
      sidecars,
    ),
    ...stateTransitions(
      list(next.ephemeralContainerStatuses),
      list(prev.ephemeralContainerStatuses),
      'status.ephemeralContainerStatuses',
      'Never',
    ),
    ...claimStatuses(next.resourceClaimStatuses, spec),
    ...ips(list(next.podIPs), 'status.podIPs', 'PodIP'),
  );
  const hostIPs = list(next.hostIPs);
  if (hostIPs.length > 0 && (next.hostIP ?? '') !== (hostIPs[0]?.ip ?? ''))
    errs.push(invalidValue('status.hostIPs[0].ip', hostIPs[0]?.ip ?? '', 'must be equal to `hostIP`'));
  errs.push(...ips(hostIPs, 'status.hostIPs', 'HostIP'));
  for (const key of ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'] as const)
    errs.push(...statusUsers(list(next[key]), `status.${key}`, spec.os?.name));
  return errs;
}

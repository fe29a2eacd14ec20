/**
 * What an update may change in a pod, as upstream 1.10 (pkg/apis/core/validation/validation.go
 * ValidatePodUpdate, ValidateContainerUpdates, validateOnlyAddedTolerations,
 * ValidatePodSpecificAnnotationUpdates, ValidatePodStatusUpdate,
 * ValidateContainerStateTransition; pkg/registry/core/pod/strategy.go). Only
 * `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`
 * (set once, then only lowered) and additions to `spec.tolerations` may change; metadata is
 * checked by the common rules (registry/metadata.ts).
 *
 * Both the pod and its `/status` go through here: the main resource keeps the stored status
 * and the status subresource keeps the stored spec before validation, so the spec rules pass
 * for status writes and the status rules pass for spec writes.
 */
import { validateDns1123Subdomain } from '../../api/names.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import { objectDiff, semanticEqual } from './pod-spec-compare.js';
import type { Pod } from './pods.schema.js';

type PodSpec = Partial<NonNullable<Pod['spec']>>;
type PodStatus = NonNullable<Pod['status']>;
type Container = NonNullable<PodSpec['containers']>[number];
type Toleration = NonNullable<PodSpec['tolerations']>[number];

const MAX_INT32 = 2147483647;
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** Upstream's message on field `spec` (followed by a newline and the diff). */
export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)';

const forbidden = (field: string, detail: string): FieldError => ({
  reason: 'FieldValueForbidden',
  field,
  message: `Forbidden: ${detail}`,
});
const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${typeof value === 'string' ? JSON.stringify(value) : value === undefined || value === null ? '"null"' : String(value)}: ${detail}`,
});

/** A list field's items; anything but an array is none. */
const list = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);

/** ValidateContainerUpdates: same number of containers; images present and trimmed. Returns [errors, stop]. */
function containerUpdates(next: Container[], prev: Container[], path: string): [FieldError[], boolean] {
  if (next.length !== prev.length) return [[forbidden(path, 'pod updates may not add or remove containers')], true];
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    const image = typeof c?.image === 'string' ? c.image : '';
    if (!image) errs.push({ reason: 'FieldValueRequired', field: `${path}[${i}].image`, message: 'Required value' });
    if (image.trim() !== image)
      errs.push(invalidValue(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return [errs, false];
}

/** activeDeadlineSeconds may go from unset to a value, or down; never back to unset. Returns [errors, stop]. */
function activeDeadlineUpdate(next: unknown, prev: unknown): [FieldError[], boolean] {
  const field = 'spec.activeDeadlineSeconds';
  if (typeof next === 'number') {
    if (next < 0 || next > MAX_INT32)
      return [[invalidValue(field, next, `must be between 0 and ${MAX_INT32}, inclusive`)], true];
    if (typeof prev === 'number' && prev < next)
      return [[invalidValue(field, next, 'must be less than or equal to previous value')], true];
  } else if (typeof prev === 'number') {
    return [[invalidValue(field, null, 'must not update from a positive integer to nil value')], false];
  }
  return [[], false];
}

/** Every existing toleration must still be there; only its tolerationSeconds may change. */
function onlyAddedTolerations(next: Toleration[], prev: Toleration[]): FieldError[] {
  const bare = (t: Toleration) => ({ ...t, tolerationSeconds: undefined });
  for (const old of prev) {
    if (!next.some((t) => semanticEqual(bare(t), bare(old)))) {
      return [forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
    }
  }
  return [];
}

/** The mirror-pod annotation and AppArmor annotations may not be added, changed or removed. */
function podAnnotationUpdates(next: Record<string, string>, prev: Record<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  const guarded = (k: string) => k === MIRROR_ANNOTATION || k.startsWith(APPARMOR_PREFIX);
  const what = (k: string) => (k === MIRROR_ANNOTATION ? 'mirror pod annotation' : 'AppArmor annotations');
  for (const [k, v] of Object.entries(prev)) {
    if (next[k] !== v && guarded(k))
      errs.push(forbidden(`metadata.annotations[${k}]`, `may not remove or update ${what(k)}`));
  }
  for (const k of Object.keys(next)) {
    if (!(k in prev) && guarded(k)) errs.push(forbidden(`metadata.annotations[${k}]`, `may not add ${what(k)}`));
  }
  return errs;
}

/** ValidatePodUpdate's spec part: what may change, then the rest must be semantically equal. */
function specUpdate(next: PodSpec, prev: PodSpec): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers'] as const) {
    const [found, stop] = containerUpdates(list(next[key]), list(prev[key]), `spec.${key}`);
    errs.push(...found);
    if (stop) return errs;
  }
  const [deadline, stop] = activeDeadlineUpdate(next.activeDeadlineSeconds, prev.activeDeadlineSeconds);
  errs.push(...deadline);
  if (stop) return errs;
  const withOldImages = (key: 'containers' | 'initContainers') =>
    list(next[key]).map((c, i) => ({ ...c, image: list(prev[key])[i]?.image }));
  const munged = {
    ...next,
    containers: withOldImages('containers'),
    initContainers: withOldImages('initContainers'),
    activeDeadlineSeconds: prev.activeDeadlineSeconds,
    tolerations: prev.tolerations,
  };
  errs.push(...onlyAddedTolerations(list(next.tolerations), list(prev.tolerations)));
  if (!semanticEqual(munged, prev))
    errs.push(forbidden('spec', `${POD_UPDATE_FORBIDDEN}\n${objectDiff(munged, prev)}`));
  return errs;
}

/** ValidatePodStatusUpdate's status part: a valid nominatedNodeName; finished containers stay finished. */
function statusUpdate(next: PodStatus, prev: PodStatus, restartPolicy: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const nominated = next.nominatedNodeName;
  if (typeof nominated === 'string' && nominated && nominated !== prev.nominatedNodeName) {
    for (const msg of validateDns1123Subdomain(nominated))
      errs.push(invalidValue('status.nominatedNodeName', nominated, msg));
  }
  if (restartPolicy === 'Always') return errs;
  for (const key of ['containerStatuses', 'initContainerStatuses'] as const) {
    list(prev[key]).forEach((old, i) => {
      const terminated = old?.state?.terminated;
      if (!terminated) return;
      if ((terminated.exitCode ?? 0) !== 0 && restartPolicy === 'OnFailure') return;
      for (const cur of list(next[key])) {
        if (cur?.name === old.name && !cur?.state?.terminated)
          errs.push(forbidden(`status.${key}[${i}].state`, 'may not be transitioned to non-terminated state'));
      }
    });
  }
  return errs;
}

/**
 * Field problems of updating pod `old` to `pod` (both defaulted; upstream ValidatePodUpdate and
 * ValidatePodStatusUpdate): the pod annotation rules, the spec update rules and the status
 * update rules. The pod's own rules (upstream ValidatePod) are run beside it (pod-validation.ts).
 */
export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const next: PodSpec = pod.spec ?? {};
  const prev: PodSpec = old.spec ?? {};
  return [
    ...podAnnotationUpdates(pod.metadata?.annotations ?? {}, old.metadata?.annotations ?? {}),
    ...specUpdate(next, prev),
    ...statusUpdate(pod.status ?? {}, old.status ?? {}, prev.restartPolicy),
  ];
}

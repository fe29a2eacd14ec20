/**
 * What an update of the pod itself may change, as upstream 1.33 with default feature gates
 * (pkg/apis/core/validation/validation.go ValidatePodUpdate, ValidateContainerUpdates,
 * validateOnlyAddedTolerations, validateOnlyDeletedSchedulingGates,
 * validateNodeSelectorMutation, validateNodeAffinityMutation, ValidatePodSpecificAnnotationUpdates):
 * container and init container images, `activeDeadlineSeconds` (set once, then only lowered),
 * additions to `tolerations`, removals from `schedulingGates`, `terminationGracePeriodSeconds`
 * from negative to 1 and, while the pod is gated, additions to `nodeSelector` and to the required
 * node affinity. Metadata is checked by the common rules (registry/metadata.ts), the pod's own
 * rules by pod-validation.ts, status writes by pod-status-rules.ts and ephemeral container
 * writes by pod-ephemeral.ts.
 */
import { MIRROR_POD_ANNOTATION } from '../../api/core/validation/pod-spec.js';
import { goStringMap } from '../../api/core/validation/strings.js';
import { forbidden, invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';
import { cmpDiff, semanticEqual } from './pod-spec-compare.js';
import type { Pod } from './pods.schema.js';

type PodSpec = Partial<NonNullable<Pod['spec']>>;
type Container = NonNullable<PodSpec['containers']>[number];
type Toleration = NonNullable<PodSpec['tolerations']>[number];
type Gate = NonNullable<PodSpec['schedulingGates']>[number];
type NodeAffinity = NonNullable<NonNullable<PodSpec['affinity']>['nodeAffinity']>;
type Term = NonNullable<
  NonNullable<NodeAffinity['requiredDuringSchedulingIgnoredDuringExecution']>['nodeSelectorTerms']
>[number];

const MAX_INT32 = 2147483647;
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** Upstream updatablePodSpecFields, joined as its message joins them. */
export const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** Upstream's message on field `spec` (followed by a newline and the cmp.Diff of old and new). */
export const POD_UPDATE_FORBIDDEN = `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}`;

/** A field error whose value is already printed as Go's %#v. */
const invalidGo = (field: string, printed: string, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${printed}: ${detail}`,
});

/** A list field's items; anything but an array is none. */
export const list = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);

/** ValidateContainerUpdates: same number of containers; images present and trimmed. Returns [errors, stop]. */
function containerUpdates(next: Container[], prev: Container[], path: string): [FieldError[], boolean] {
  if (next.length !== prev.length) return [[forbidden(path, 'pod updates may not add or remove containers')], true];
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    const image = typeof c?.image === 'string' ? c.image : '';
    if (!image) errs.push(required(`${path}[${i}].image`));
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
    if (!next.some((t) => semanticEqual(bare(t), bare(old))))
      return [forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return [];
}

/** validateOnlyDeletedSchedulingGates: no gate that was not there before. */
function onlyDeletedSchedulingGates(next: Gate[], prev: Gate[]): FieldError[] {
  const old = new Set(prev.map((g) => g?.name));
  const added = new Map<string, number>();
  next.forEach((g, i) => added.set(g?.name ?? '', i));
  return [...added]
    .filter(([name]) => !old.has(name))
    .sort((x, y) => x[1] - y[1])
    .map(([name, i]) =>
      forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${name}'`),
    );
}

/** The mirror-pod annotation and AppArmor annotations may not be added, changed or removed. */
export function podAnnotationUpdates(next: Record<string, string>, prev: Record<string, string>): FieldError[] {
  const errs: FieldError[] = [];
  const guarded = (k: string) => k === MIRROR_POD_ANNOTATION || k.startsWith(APPARMOR_PREFIX);
  const what = (k: string) => (k === MIRROR_POD_ANNOTATION ? 'mirror pod annotation' : 'AppArmor annotations');
  for (const [k, v] of Object.entries(prev)) {
    if (next[k] !== v && guarded(k))
      errs.push(forbidden(`metadata.annotations[${k}]`, `may not remove or update ${what(k)}`));
  }
  for (const k of Object.keys(next)) {
    if (!(k in prev) && guarded(k)) errs.push(forbidden(`metadata.annotations[${k}]`, `may not add ${what(k)}`));
  }
  return errs;
}

/** validateNodeSelectorMutation: every old key keeps its value. */
function nodeSelectorMutation(next: Record<string, string> | undefined, prev: Record<string, string> | undefined) {
  for (const [k, v] of Object.entries(prev ?? {}))
    if (next?.[k] !== v)
      return [
        invalidGo(
          'spec.nodeSelector',
          next ? goStringMap(next) : 'map[string]string(nil)',
          'only additions to spec.nodeSelector are allowed (no mutations or deletions)',
        ),
      ];
  return [];
}

/** validateNodeSelectorTermHasOnlyAdditions: old expressions and fields stay first, unchanged. */
function termHasOnlyAdditions(next: Term | undefined, old: Term): boolean {
  for (const key of ['matchExpressions', 'matchFields'] as const) {
    const o = list(old[key]);
    const n = list(next?.[key]);
    if (o.length > n.length || o.some((e, i) => !semanticEqual(e, n[i]))) return false;
  }
  return true;
}

/** validateNodeAffinityMutation: a non-empty required term list keeps its terms, which only grow. */
function nodeAffinityMutation(next: NodeAffinity | undefined, prev: NodeAffinity | undefined): FieldError[] {
  const oldTerms = list(prev?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
  const newTerms = list(next?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
  const path = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
  const go = (v: unknown, type: string) => `${type}${JSON.stringify(v)}`;
  if (oldTerms.length > 0 && oldTerms.length !== newTerms.length)
    return [
      invalidGo(
        path,
        go(newTerms, '[]core.NodeSelectorTerm'),
        'no additions/deletions to non-empty NodeSelectorTerms list are allowed',
      ),
    ];
  return oldTerms.flatMap((old, i) =>
    termHasOnlyAdditions(newTerms[i], old)
      ? []
      : [
          invalidGo(
            `${path}[${i}]`,
            go(newTerms[i], 'core.NodeSelectorTerm'),
            'only additions are allowed (no mutations or deletions)',
          ),
        ],
  );
}

/** While the old pod is gated: nodeSelector and required node affinity may grow; munges them back. */
function gatedMutations(munged: PodSpec, prev: PodSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(munged.nodeSelector, prev.nodeSelector)) {
    errs.push(...nodeSelectorMutation(munged.nodeSelector ?? undefined, prev.nodeSelector ?? undefined));
    munged.nodeSelector = prev.nodeSelector;
  }
  const oldNA = prev.affinity?.nodeAffinity ?? undefined;
  const newNA = munged.affinity?.nodeAffinity ?? undefined;
  if (!semanticEqual(oldNA, newNA)) {
    errs.push(...nodeAffinityMutation(newNA, oldNA));
    const affinity = munged.affinity;
    if (!affinity) {
      if (oldNA) munged.affinity = { nodeAffinity: oldNA };
    } else if (!prev.affinity && !affinity.podAffinity && !affinity.podAntiAffinity) munged.affinity = undefined;
    else munged.affinity = { ...affinity, nodeAffinity: oldNA };
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
  errs.push(...onlyAddedTolerations(list(next.tolerations), list(prev.tolerations)));
  errs.push(...onlyDeletedSchedulingGates(list(next.schedulingGates), list(prev.schedulingGates)));
  if (semanticEqual(next, prev)) return errs;
  const withOldImages = (key: 'containers' | 'initContainers') =>
    list(next[key]).map((c, i) => ({ ...c, image: list(prev[key])[i]?.image ?? '' }));
  const munged: PodSpec = {
    ...next,
    containers: withOldImages('containers'),
    initContainers: withOldImages('initContainers'),
    activeDeadlineSeconds: prev.activeDeadlineSeconds,
    schedulingGates: prev.schedulingGates,
    tolerations: prev.tolerations,
  };
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = oldGrace;
  if (list(prev.schedulingGates).length > 0) errs.push(...gatedMutations(munged, prev));
  if (!semanticEqual(munged, prev))
    errs.push(forbidden('spec', `${POD_UPDATE_FORBIDDEN}\n${cmpDiff('core.PodSpec', prev, munged)}`));
  return errs;
}

/**
 * Field problems of updating pod `old` to `pod` (both defaulted) beyond the pod's own rules
 * (pod-validation.ts validatePod, run beside it): the pod annotation rules and the spec rules.
 */
export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  return [
    ...podAnnotationUpdates(pod.metadata?.annotations ?? {}, old.metadata?.annotations ?? {}),
    ...specUpdate(pod.spec ?? {}, old.spec ?? {}),
  ];
}

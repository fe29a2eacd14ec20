/**
 * A StatefulSet's pods and their identity (upstream 1.33 pkg/controller/statefulset/
 * stateful_set_utils.go): pods are named `<set>-<ordinal>` for ordinals spec.ordinals.start ..
 * start+replicas-1, carry the labels `statefulset.kubernetes.io/pod-name`,
 * `apps.kubernetes.io/pod-index` and `controller-revision-hash`, the hostname and subdomain
 * (serviceName) of their identity, and one volume per volumeClaimTemplate bound to the claim
 * `<claim>-<set>-<ordinal>`.
 */
import { deepCopy } from '../../api/object.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { podFromTemplate } from '../replicaset/pod-template.js';
import type { PodTemplate } from '../replicaset/workload.js';
import { setControllerRef } from './kind.js';

/** Upstream apps.StatefulSetPodNameLabel. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** Upstream apps.PodIndexLabel (feature PodIndexLabel, on by default since 1.28). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** Upstream apps.StatefulSetRevisionLabel / ControllerRevisionHashLabelKey: the pod's revision name. */
export const REVISION_LABEL = 'controller-revision-hash';

const STATEFUL_POD = /^(.*)-([0-9]+)$/;
const MAX_INT32 = 2 ** 31 - 1;

/**
 * The parent set's name and the ordinal in a pod's name (upstream getParentNameAndOrdinal):
 * `web-2` is `['web', 2]`; a name without a `-<digits>` suffix gives `['', -1]`, and one whose
 * digits overflow an int32 gives the parent with -1.
 */
export function parentNameAndOrdinal(pod: Pod): [string, number] {
  const m = STATEFUL_POD.exec(pod.metadata.name ?? '');
  if (!m) return ['', -1];
  const n = Number(m[2]);
  return [m[1], n <= MAX_INT32 ? n : -1];
}

/** The pod's ordinal, -1 when it has none (upstream getOrdinal). */
export const ordinalOf = (pod: Pod): number => parentNameAndOrdinal(pod)[1];

/** spec.ordinals.start, 0 when absent (upstream getStartOrdinal). */
export const startOrdinal = (set: StatefulSet): number => set.spec?.ordinals?.start ?? 0;

/** spec.replicas, 1 when absent (as the defaulting would make it). */
export const replicasOf = (set: StatefulSet): number => set.spec?.replicas ?? 1;

/** The last ordinal of the set, inclusive (upstream getEndOrdinal). */
export const endOrdinal = (set: StatefulSet): number => startOrdinal(set) + replicasOf(set) - 1;

/** Whether the pod's ordinal is one the set keeps (upstream podInOrdinalRange). */
export function podInOrdinalRange(pod: Pod, set: StatefulSet): boolean {
  const ordinal = ordinalOf(pod);
  return ordinal >= startOrdinal(set) && ordinal <= endOrdinal(set);
}

/** `<set>-<ordinal>` (upstream getPodName). */
export const podName = (set: StatefulSet, ordinal: number): string => `${set.metadata.name}-${ordinal}`;

/** `<claim>-<set>-<ordinal>` (upstream getPersistentVolumeClaimName). */
export const claimName = (set: StatefulSet, claim: ClaimTemplate, ordinal: number): string =>
  `${claim.metadata?.name ?? ''}-${set.metadata.name}-${ordinal}`;

/** A volumeClaimTemplate of the set. */
export type ClaimTemplate = NonNullable<NonNullable<StatefulSet['spec']>['volumeClaimTemplates']>[number];

/** Whether the pod's name makes it a member of the set (upstream isMemberOf). */
export const isMemberOf = (set: StatefulSet, pod: Pod): boolean => parentNameAndOrdinal(pod)[0] === set.metadata.name;

/** Whether the pod has the name, namespace and pod-name label of a member of the set (upstream identityMatches). */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
  const [parent, ordinal] = parentNameAndOrdinal(pod);
  return (
    ordinal >= 0 &&
    parent === set.metadata.name &&
    pod.metadata.name === podName(set, ordinal) &&
    pod.metadata.namespace === set.metadata.namespace &&
    pod.metadata.labels?.[POD_NAME_LABEL] === pod.metadata.name
  );
}

/** Whether the pod mounts, for each claim template, the volume of its own claim (upstream storageMatches). */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  return (set.spec?.volumeClaimTemplates ?? []).every(
    (claim) =>
      volumes.get(claim.metadata?.name ?? '')?.persistentVolumeClaim?.claimName === claimName(set, claim, ordinal),
  );
}

/**
 * The claims a pod of the set needs, by template name (upstream getPersistentVolumeClaims):
 * each template copied, named for the pod's ordinal, in the set's namespace, its labels merged
 * with the selector's matchLabels (without the template's status).
 */
export function claimsFor(set: StatefulSet, pod: Pod): Map<string, PersistentVolumeClaim> {
  const ordinal = ordinalOf(pod);
  const out = new Map<string, PersistentVolumeClaim>();
  for (const template of set.spec?.volumeClaimTemplates ?? []) {
    const claim = deepCopy(template) as PersistentVolumeClaim;
    delete claim.status;
    const meta = claim.metadata ?? {};
    const labels = { ...(meta.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    claim.metadata = { ...meta, name: claimName(set, template, ordinal), namespace: set.metadata.namespace };
    if (Object.keys(labels).length) claim.metadata.labels = labels;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    out.set(template.metadata?.name ?? '', claim);
  }
  return out;
}

/**
 * Point the pod's volumes named as claim templates at its claims, keeping its other volumes
 * after them (upstream updateStorage). Mutates `pod`.
 */
export function updateStorage(set: StatefulSet, pod: Pod): void {
  const claims = claimsFor(set, pod);
  const volumes = [...claims].map(([name, claim]) => ({
    name,
    persistentVolumeClaim: { claimName: claim.metadata.name ?? '' },
  }));
  const others = (pod.spec?.volumes ?? []).filter((v) => !claims.has(v.name));
  pod.spec = { ...(pod.spec as NonNullable<Pod['spec']>), volumes: [...volumes, ...others] };
}

/** Set the pod's name, namespace, pod-name and pod-index labels from its ordinal (upstream updateIdentity). Mutates `pod`. */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
  const ordinal = ordinalOf(pod);
  pod.metadata.name = podName(set, ordinal);
  pod.metadata.namespace = set.metadata.namespace;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [POD_NAME_LABEL]: pod.metadata.name };
  pod.metadata.labels[POD_INDEX_LABEL] = String(ordinal);
}

/** The revision name in the pod's `controller-revision-hash` label, '' when absent (upstream getPodRevision). */
export const podRevision = (pod: Pod): string => pod.metadata.labels?.[REVISION_LABEL] ?? '';

/** Label the pod with its revision (upstream setPodRevision). Mutates `pod`. */
export function setPodRevision(pod: Pod, revision: string): void {
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [REVISION_LABEL]: revision };
}

/**
 * A new pod of the set with the given ordinal (upstream newStatefulSetPod): the template's pod
 * (GetPodFromTemplate) owned by the set, named `<set>-<ordinal>`, its identity (labels,
 * hostname = name, subdomain = serviceName; the last two only on creation, as they cannot
 * change) and storage. Throws as podFromTemplate when the template has no labels.
 */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
  const namespace = set.metadata.namespace ?? '';
  const template = set.spec?.template as PodTemplate | undefined;
  const pod = podFromTemplate(template, namespace, set.metadata.name ?? '', setControllerRef(set));
  delete pod.metadata.generateName;
  pod.metadata.name = podName(set, ordinal);
  updateIdentity(set, pod);
  const spec = { ...(pod.spec ?? { containers: [] }), hostname: pod.metadata.name } as NonNullable<Pod['spec']>;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  pod.spec = spec;
  updateStorage(set, pod);
  return pod;
}

/**
 * The pod of an ordinal not yet created (upstream newVersionedStatefulSetPod): at the current
 * revision (from `currentSet`) when it is below the partition (RollingUpdate with a
 * rollingUpdate), or below start+status.currentReplicas (RollingUpdate without one); at the
 * update revision otherwise. The condition keeps upstream's operator precedence.
 */
export function newVersionedStatefulSetPod(
  currentSet: StatefulSet,
  updateSet: StatefulSet,
  currentRevision: string,
  updateRevision: string,
  ordinal: number,
): Pod {
  const strategy = currentSet.spec?.updateStrategy;
  const rolling = strategy?.rollingUpdate;
  const start = startOrdinal(currentSet);
  const useCurrent =
    (strategy?.type === 'RollingUpdate' && !rolling && ordinal < start + (currentSet.status?.currentReplicas ?? 0)) ||
    (rolling != null && ordinal < start + (rolling.partition ?? 0));
  const pod = newStatefulSetPod(useCurrent ? currentSet : updateSet, ordinal);
  setPodRevision(pod, useCurrent ? currentRevision : updateRevision);
  return pod;
}

/** Pods sorted by ordinal, ascending (upstream ascendingOrdinal); pods without one first. */
export const ascendingOrdinal = (pods: readonly Pod[]): Pod[] => [...pods].sort((a, b) => ordinalOf(a) - ordinalOf(b));

/** Pods sorted by ordinal, descending (upstream descendingOrdinal); pods without one last. */
export const descendingOrdinal = (pods: readonly Pod[]): Pod[] => [...pods].sort((a, b) => ordinalOf(b) - ordinalOf(a));

/**
 * Sets ordered oldest first, by name when created at the same time (upstream
 * overlappingStatefulSets): the one of several whose selectors overlap that wins a pod.
 */
export function overlappingOrder(sets: readonly StatefulSet[]): StatefulSet[] {
  const time = (s: StatefulSet) => Date.parse(s.metadata.creationTimestamp ?? '') || 0;
  return [...sets].sort((a, b) => time(a) - time(b) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

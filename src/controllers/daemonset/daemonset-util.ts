/**
 * The DaemonSet helpers of upstream 1.33 pkg/controller/daemon/util/daemonset_util.go:
 * the default tolerations of daemon pods (AddOrUpdateDaemonPodTolerations, with
 * component-helpers' AddOrUpdateTolerationInPodSpec), the pod template with the revision labels
 * (CreatePodTemplate), the node affinity that pins a daemon pod to its node
 * (ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName), whether a pod is of the current
 * revision (IsPodUpdated) and the update strategy's counts (SurgeCount, UnavailableCount,
 * AllowsSurge). Pure functions; inputs are never changed.
 */
import { deepCopy } from '../../api/object.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import { TEMPLATE_GENERATION_ANNOTATION } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { scaledValue } from '../deployment/replicas.js';

/** Upstream apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey). */
export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';
/** Upstream extensions.DaemonSetTemplateGenerationKey. */
export const POD_TEMPLATE_GENERATION = 'pod-template-generation';

type PodSpec = NonNullable<Pod['spec']>;
type Toleration = NonNullable<PodSpec['tolerations']>[number];
type Affinity = NonNullable<PodSpec['affinity']>;
/** A DaemonSet's pod template (metadata and spec). */
export type DaemonPodTemplate = NonNullable<NonNullable<DaemonSet['spec']>['template']>;

/** Upstream Toleration.MatchToleration: same key, operator, value and effect (tolerationSeconds aside). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/**
 * Upstream AddOrUpdateTolerationInPodSpec: `tolerations` with `t` replacing every toleration
 * that matches it (e.g. one with tolerationSeconds), or appended when none does.
 */
export function addOrUpdateToleration(tolerations: readonly Toleration[], t: Toleration): Toleration[] {
  let updated = false;
  const out = tolerations.map((cur) => {
    if (!sameToleration(cur, t)) return cur;
    updated = true;
    return { ...t };
  });
  if (!updated) out.push({ ...t });
  return out;
}

const exists = (key: string, effect: 'NoExecute' | 'NoSchedule'): Toleration => ({ key, operator: 'Exists', effect });

/**
 * Upstream AddOrUpdateDaemonPodTolerations: `spec` with the tolerations every daemon pod gets —
 * not-ready and unreachable (NoExecute, no tolerationSeconds, so node problems never evict it),
 * disk-pressure, memory-pressure, pid-pressure and unschedulable (NoSchedule), and
 * network-unavailable (NoSchedule) for a hostNetwork pod. Returns a new spec.
 */
export function addOrUpdateDaemonPodTolerations(spec: PodSpec): PodSpec {
  const wanted = [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
  ];
  if (spec.hostNetwork) wanted.push(exists('node.kubernetes.io/network-unavailable', 'NoSchedule'));
  let tolerations: Toleration[] = [...(spec.tolerations ?? [])];
  for (const t of wanted) tolerations = addOrUpdateToleration(tolerations, t);
  return { ...spec, tolerations };
}

/**
 * Upstream GetTemplateGeneration: the DaemonSet's `deprecated.daemonset.template.generation`
 * annotation; undefined when absent or not an integer (upstream's parse error, which the
 * controller treats as absent).
 */
export function templateGeneration(ds: DaemonSet): number | undefined {
  const raw = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * Upstream CreatePodTemplate: a copy of `template` with the daemon tolerations, the label
 * `pod-template-generation` (when `generation` is given) and `controller-revision-hash` (when
 * `hash` is not empty).
 */
export function createPodTemplate(
  template: DaemonPodTemplate | undefined,
  generation: number | undefined,
  hash: string,
): DaemonPodTemplate {
  const copy = deepCopy(template ?? {}) as DaemonPodTemplate;
  const metadata = { ...(copy.metadata ?? {}) };
  const labels = { ...(metadata.labels ?? {}) };
  if (generation !== undefined) labels[POD_TEMPLATE_GENERATION] = String(generation);
  if (hash) labels[CONTROLLER_REVISION_HASH] = hash;
  metadata.labels = labels;
  return { ...copy, metadata, spec: addOrUpdateDaemonPodTolerations((copy.spec ?? {}) as PodSpec) };
}

/**
 * Upstream ReplaceDaemonSetPodNodeNameNodeAffinity: `affinity` whose required node affinity is
 * one term `matchFields: metadata.name In [nodeName]` (other required terms are replaced; the
 * preferred terms and pod (anti-)affinity stay). Returns a new affinity.
 */
export function replaceDaemonSetPodNodeNameNodeAffinity(
  affinity: Affinity | null | undefined,
  nodeName: string,
): Affinity {
  const required = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
  };
  const nodeAffinity = affinity?.nodeAffinity ?? {};
  return {
    ...(affinity ?? {}),
    nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required },
  } as Affinity;
}

/**
 * Upstream GetTargetNodeName: the pod's spec.nodeName, else the node its required node affinity
 * names (`matchFields` `metadata.name In [one]`). Throws Error (upstream's messages) when neither
 * names one node.
 */
export function targetNodeName(pod: Pod): string {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const id = `${pod.metadata.namespace}/${pod.metadata.name}`;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required)
    throw new Error(`no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ${id}`);
  const terms = required.nodeSelectorTerms ?? [];
  if (!terms.length)
    throw new Error(`no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod ${id}`);
  for (const term of terms)
    for (const exp of term.matchFields ?? []) {
      if (exp.key !== 'metadata.name' || exp.operator !== 'In') continue;
      if ((exp.values ?? []).length !== 1)
        throw new Error(`the matchFields value of 'metadata.name' is not unique for pod ${id}`);
      return (exp.values ?? [])[0];
    }
  throw new Error(`no node name found for pod ${id}`);
}

/**
 * Upstream IsPodUpdated: the pod's `controller-revision-hash` is `hash` (not empty), or its
 * `pod-template-generation` is `generation` (for pods made before hashes).
 */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata.labels ?? {};
  const templateMatches = generation !== undefined && labels[POD_TEMPLATE_GENERATION] === String(generation);
  return (hash !== '' && labels[CONTROLLER_REVISION_HASH] === hash) || templateMatches;
}

const rolling = (ds: DaemonSet) =>
  ds.spec?.updateStrategy?.type === 'RollingUpdate' ? ds.spec.updateStrategy.rollingUpdate : undefined;

/**
 * Upstream SurgeCount: maxSurge of a RollingUpdate DaemonSet scaled to `numberToSchedule`
 * (percentages round up); 0 for OnDelete or when unset. Throws Error for a malformed value.
 */
export function surgeCount(ds: DaemonSet, numberToSchedule: number): number {
  const value = rolling(ds)?.maxSurge;
  return value === undefined || value === null ? 0 : scaledValue(value, numberToSchedule, true);
}

/**
 * Upstream UnavailableCount: maxUnavailable of a RollingUpdate DaemonSet scaled to
 * `numberToSchedule` (percentages round up); 0 for OnDelete. Throws Error for a malformed value.
 */
export function unavailableCount(ds: DaemonSet, numberToSchedule: number): number {
  const r = rolling(ds);
  if (!r) return 0;
  return scaledValue(r.maxUnavailable ?? 0, numberToSchedule, true);
}

/** Upstream AllowsSurge: the DaemonSet may run more than one pod on a node during an update. */
export function allowsSurge(ds: DaemonSet): boolean {
  try {
    return surgeCount(ds, 1) > 0;
  } catch {
    return false;
  }
}

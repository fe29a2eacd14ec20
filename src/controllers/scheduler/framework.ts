/**
 * The scheduler's shared vocabulary (upstream pkg/scheduler/framework: interface.go Status and
 * Code, types.go NodeInfo; component-helpers scheduling/corev1 toleration and node selector
 * matching): what a filter answers, what it sees of a node, and the matching rules several
 * plugins use.
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import { labelSelectorOf, matchesLabels, type LabelSelectorObject } from '../../api/label-selector.js';
import { validateLabelValue, validateQualifiedName } from '../../api/names.js';

/**
 * Why a node was refused (upstream framework.Code): `Unschedulable` may be resolved by
 * preemption, `UnschedulableAndUnresolvable` may not.
 */
export type FilterCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';

/** A filter's refusal: its code, upstream's reason texts (counted in the FitError message) and the plugin. */
export interface FilterStatus {
  readonly code: FilterCode;
  readonly reasons: readonly string[];
  readonly plugin: string;
}

/** One node as the scheduler sees it (upstream NodeInfo): the node and the pods assigned to it. */
export interface NodeInfo {
  readonly node: Node;
  readonly pods: readonly Pod[];
}

/** The claims, volumes and classes the VolumeBinding plugin reads (the scheduler's informers). */
export interface VolumeListers {
  claim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  volume(name: string): PersistentVolume | undefined;
  volumes(): readonly PersistentVolume[];
  storageClass(name: string): StorageClass | undefined;
}

/**
 * What a filter may read besides the node: every node (for spreading and affinity), namespace
 * labels, and (when the scheduler follows them) claims, volumes and storage classes.
 */
export interface ClusterView {
  readonly nodes: readonly NodeInfo[];
  /** Labels of a namespace (for namespaceSelector); undefined when unknown. */
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
  readonly volumes?: VolumeListers;
}

/**
 * A filter plugin (upstream FilterPlugin with its PreFilter folded in): `prepare` runs once per
 * pod and cycle over the whole cluster and returns the per-node check; null means it passes.
 */
export interface FilterPlugin {
  readonly name: string;
  /**
   * Upstream PreFilter refusing the pod outright (UnschedulableAndUnresolvable on every node):
   * the message reported instead of the per-node reasons, or null to go on.
   */
  preFilter?(pod: Pod, cluster: ClusterView): string | null;
  prepare(pod: Pod, cluster: ClusterView): (info: NodeInfo) => FilterStatus | null;
}

/** Build a refusal of `plugin`. */
export const refuse = (plugin: string, code: FilterCode, ...reasons: string[]): FilterStatus => ({
  plugin,
  code,
  reasons,
});

type Toleration = NonNullable<NonNullable<Pod['spec']>['tolerations']>[number];
type Taint = NonNullable<NonNullable<Node['spec']>['taints']>[number];

/**
 * Whether `toleration` tolerates `taint` (upstream Toleration.ToleratesTaint): effects match
 * (an empty effect matches all), and with operator Exists the key matches (an empty key matches
 * every key), with Equal (the default) key and value are equal.
 */
export function tolerates(toleration: Toleration, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case 'Exists':
      return true;
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** Whether any of `tolerations` tolerates `taint` (upstream TolerationsTolerateTaint). */
export const anyTolerates = (tolerations: readonly Toleration[] | undefined | null, taint: Taint): boolean =>
  (tolerations ?? []).some((t) => tolerates(t, taint));

type NodeSelectorTerm = NonNullable<
  NonNullable<
    NonNullable<NonNullable<Pod['spec']>['affinity']>['nodeAffinity']
  >['requiredDuringSchedulingIgnoredDuringExecution']
>['nodeSelectorTerms'][number];
type NodeSelectorRequirement = NonNullable<NodeSelectorTerm['matchExpressions']>[number];

/**
 * Whether a label requirement holds for `value`. A requirement upstream's labels.NewRequirement
 * refuses (invalid key or value) matches nothing, as its term does not.
 */
function requirementHolds(req: NodeSelectorRequirement, value: string | undefined, field = false): boolean {
  const values = req.values ?? [];
  if (!field && (validateQualifiedName(req.key).length || values.some((v) => validateLabelValue(v).length)))
    return false;
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0]))
        return false;
      return req.operator === 'Gt' ? BigInt(value) > BigInt(values[0]) : BigInt(value) < BigInt(values[0]);
    }
    default:
      return false;
  }
}

/**
 * Whether `node` matches one NodeSelectorTerm (upstream nodeaffinity.nodeSelectorTerm.match):
 * every label expression and every field expression (only metadata.name) holds; a term with
 * neither matches no node.
 */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  const labels = node.metadata.labels ?? {};
  const has = (k: string) => (Object.prototype.hasOwnProperty.call(labels, k) ? labels[k] : undefined);
  if (!exprs.every((r) => requirementHolds(r, has(r.key)))) return false;
  return fields.every((r) => r.key === 'metadata.name' && requirementHolds(r, node.metadata.name ?? '', true));
}

/**
 * Whether `node` satisfies the pod's nodeSelector and required node affinity (upstream
 * RequiredNodeAffinity.Match, used by NodeAffinity and PodTopologySpread's node inclusion).
 */
export function matchesRequiredNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}

/**
 * Whether `labels` match a metav1.LabelSelector (upstream LabelSelectorAsSelector): absent
 * (null) matches nothing, empty matches everything; an invalid selector matches nothing.
 */
export function selectorMatches(
  selector: LabelSelectorObject | null | undefined,
  labels: Readonly<Record<string, string>> | undefined | null,
): boolean {
  if (!selector) return false;
  try {
    return matchesLabels(labelSelectorOf(selector), labels);
  } catch {
    return false;
  }
}

/** Pods counted on nodes: those not finished (the scheduler's informer drops Succeeded and Failed pods). */
export const isActivePod = (pod: Pod): boolean => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';

/** Pods with any pod affinity or anti-affinity, per node snapshot (upstream NodeInfo.PodsWithAffinity). */
const withAffinityMemo = new WeakMap<NodeInfo, readonly Pod[]>();

/** The pods of a node that declare pod affinity or anti-affinity (memoized per snapshot). */
export function podsWithAffinity(info: NodeInfo): readonly Pod[] {
  let out = withAffinityMemo.get(info);
  if (!out) {
    out = info.pods.filter((p) => p.spec?.affinity?.podAffinity || p.spec?.affinity?.podAntiAffinity);
    withAffinityMemo.set(info, out);
  }
  return out;
}

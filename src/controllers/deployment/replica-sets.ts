/**
 * Finding, ordering and counting a Deployment's ReplicaSets (upstream deployment/util
 * deployment_util.go FindNewReplicaSet, FindOldReplicaSets, EqualIgnoreHash, the
 * Get*ReplicaCountForReplicaSets sums, and pkg/controller/controller_utils.go
 * FilterActiveReplicaSets and the ReplicaSetsByCreationTimestamp / BySizeOlder / BySizeNewer
 * orders). Sorting functions return new arrays.
 */
import { canonicalJson } from './hash.js';
import { POD_TEMPLATE_HASH, specReplicas, type Deployment, type PodTemplate, type ReplicaSet } from './types.js';
import { revisionOf } from './revisions.js';

type MaybeRS = ReplicaSet | null | undefined;

/** Creation time in ms (absent: 0). */
const created = (rs: ReplicaSet): number => Date.parse(rs.metadata.creationTimestamp ?? '') || 0;

/** ReplicaSetsByCreationTimestamp: oldest first, then by name. */
export function byCreation(a: ReplicaSet, b: ReplicaSet): number {
  const d = created(a) - created(b);
  if (d !== 0) return d;
  const an = a.metadata.name ?? '';
  const bn = b.metadata.name ?? '';
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/** ReplicaSetsBySizeOlder: larger spec.replicas first, ties oldest first. */
export const bySizeOlder = (a: ReplicaSet, b: ReplicaSet): number =>
  specReplicas(b) - specReplicas(a) || byCreation(a, b);

/** ReplicaSetsBySizeNewer: larger spec.replicas first, ties newest first. */
export const bySizeNewer = (a: ReplicaSet, b: ReplicaSet): number =>
  specReplicas(b) - specReplicas(a) || byCreation(b, a);

/** ReplicaSetsByRevision: lowest revision first, ties by creation. */
export const byRevision = (a: ReplicaSet, b: ReplicaSet): number =>
  (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b);

/** FilterActiveReplicaSets: those with spec.replicas > 0. */
export const activeReplicaSets = (list: readonly MaybeRS[]): ReplicaSet[] =>
  list.filter((rs): rs is ReplicaSet => !!rs && specReplicas(rs) > 0);

/** A template with the pod-template-hash label removed (and an empty label map dropped). */
function withoutHash(t: PodTemplate | null | undefined): unknown {
  const labels = { ...(t?.metadata?.labels ?? {}) };
  delete labels[POD_TEMPLATE_HASH];
  const metadata = { ...(t?.metadata ?? {}), labels: Object.keys(labels).length ? labels : undefined };
  return JSON.parse(JSON.stringify({ ...(t ?? {}), metadata }));
}

/** EqualIgnoreHash: the templates are equal once the pod-template-hash label is ignored. */
export function equalIgnoreHash(a: PodTemplate | null | undefined, b: PodTemplate | null | undefined): boolean {
  // Compared as upstream's Semantic.DeepEqual of typed templates: null and [] as absent.
  return canonicalJson(withoutHash(a)) === canonicalJson(withoutHash(b));
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template is the Deployment's, or undefined. */
export function findNewReplicaSet(d: Deployment, list: readonly ReplicaSet[]): ReplicaSet | undefined {
  return [...list].sort(byCreation).find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
}

/**
 * FindOldReplicaSets: every ReplicaSet but the new one (`all`), and those of them with
 * spec.replicas ≠ 0 (`required`).
 */
export function findOldReplicaSets(
  d: Deployment,
  list: readonly ReplicaSet[],
): { required: ReplicaSet[]; all: ReplicaSet[] } {
  const newRS = findNewReplicaSet(d, list);
  const all = list.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid);
  return { required: all.filter((rs) => specReplicas(rs) !== 0), all };
}

const sum = (list: readonly MaybeRS[], f: (rs: ReplicaSet) => number): number =>
  list.reduce((n, rs) => n + (rs ? f(rs) : 0), 0);

/** GetReplicaCountForReplicaSets: the sum of spec.replicas. */
export const replicaCount = (list: readonly MaybeRS[]): number => sum(list, specReplicas);
/** GetActualReplicaCountForReplicaSets: the sum of status.replicas. */
export const actualReplicaCount = (list: readonly MaybeRS[]): number => sum(list, (rs) => rs.status?.replicas ?? 0);
/** GetReadyReplicaCountForReplicaSets: the sum of status.readyReplicas. */
export const readyReplicaCount = (list: readonly MaybeRS[]): number => sum(list, (rs) => rs.status?.readyReplicas ?? 0);
/** GetAvailableReplicaCountForReplicaSets: the sum of status.availableReplicas. */
export const availableReplicaCount = (list: readonly MaybeRS[]): number =>
  sum(list, (rs) => rs.status?.availableReplicas ?? 0);

/**
 * FindActiveOrLatest: the one active ReplicaSet when exactly one is active; with none active,
 * the new one, else the newest old one; undefined when several are active or there are none.
 */
export function findActiveOrLatest(newRS: MaybeRS, oldRSs: readonly ReplicaSet[]): ReplicaSet | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/**
 * Revision and replica annotations (upstream deployment/util/deployment_util.go: Revision,
 * MaxRevision, LastRevision, SetNewReplicaSetAnnotations, copyDeploymentAnnotationsToReplicaSet,
 * SetDeploymentAnnotationsTo, SetDeploymentRevision, SetReplicasAnnotations,
 * ReplicasAnnotationsNeedUpdate, GetDesiredReplicasAnnotation, getMaxReplicasAnnotation).
 * Functions named `set…` change the object they are given and say whether they changed it.
 */
import {
  DESIRED_REPLICAS_ANNOTATION,
  LAST_APPLIED_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  MAX_REV_HISTORY_LENGTH,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
  type Deployment,
  type ReplicaSet,
} from './types.js';

type Annotated = { metadata: { annotations?: Record<string, string> | null } };

/** Annotations never copied between a Deployment and its ReplicaSets (upstream annotationsToSkip). */
const SKIPPED = new Set([
  LAST_APPLIED_ANNOTATION,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  ROLLBACK_TO_ANNOTATION,
]);

const INT = /^[+-]?\d+$/;

/** The annotations of `o`, created when absent. */
const annotationsOf = (o: Annotated): Record<string, string> => (o.metadata.annotations ??= {});

/** Upstream Revision: the revision annotation as a number (absent: 0; not an integer: undefined, upstream's error). */
export function revisionOf(o: Annotated): number | undefined {
  const v = o.metadata.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return INT.test(v) ? Number(v) : undefined;
}

/** MaxRevision: the highest revision among `list` (unparsable ones ignored; none: 0). */
export function maxRevision(list: readonly (ReplicaSet | null | undefined)[]): number {
  return list.reduce((max, rs) => Math.max(max, (rs && revisionOf(rs)) ?? 0), 0);
}

/** LastRevision: the second-highest revision among `list` (0 when there is none). */
export function lastRevision(list: readonly (ReplicaSet | null | undefined)[]): number {
  let max = 0;
  let second = 0;
  for (const rs of list) {
    const v = rs ? revisionOf(rs) : undefined;
    if (v === undefined) continue;
    if (v >= max) [second, max] = [max, v];
    else if (v > second) second = v;
  }
  return second;
}

/** copyDeploymentAnnotationsToReplicaSet: copy the Deployment's annotations except the skipped ones. */
export function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
  const target = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIPPED.has(k) || target[k] === v) continue;
    target[k] = v;
    changed = true;
  }
  return changed;
}

/** SetDeploymentAnnotationsTo (rollback): the Deployment's skipped annotations kept, the rest taken from `rs`. */
export function setDeploymentAnnotationsTo(d: Deployment, rs: ReplicaSet): void {
  const kept = Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([k]) => SKIPPED.has(k)));
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!SKIPPED.has(k)) kept[k] = v;
  d.metadata.annotations = kept;
}

/** SetDeploymentRevision: set the Deployment's revision annotation; true when it changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
  const a = annotationsOf(d);
  if (a[REVISION_ANNOTATION] === revision) return false;
  a[REVISION_ANNOTATION] = revision;
  return true;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true when either changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = annotationsOf(rs);
  let changed = false;
  for (const [k, v] of [
    [DESIRED_REPLICAS_ANNOTATION, String(desired)],
    [MAX_REPLICAS_ANNOTATION, String(max)],
  ] as const) {
    if (a[k] === v) continue;
    a[k] = v;
    changed = true;
  }
  return changed;
}

/** ReplicasAnnotationsNeedUpdate: whether desired-replicas or max-replicas differ from the given values. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
  const a = rs.metadata.annotations;
  if (!a) return true;
  return a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** An int32 annotation of `rs` (upstream getIntFromAnnotation); undefined when absent or not a number. */
function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && INT.test(v) ? Number(v) : undefined;
}

/** GetDesiredReplicasAnnotation. */
export const desiredReplicasAnnotation = (rs: ReplicaSet): number | undefined =>
  intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
/** getMaxReplicasAnnotation. */
export const maxReplicasAnnotation = (rs: ReplicaSet): number | undefined => intAnnotation(rs, MAX_REPLICAS_ANNOTATION);

/**
 * SetNewReplicaSetAnnotations: copy the Deployment's annotations; raise the revision to
 * `newRevision` when lower, keeping the replaced one in revision-history (within
 * `historyLimit` characters, oldest dropped first); on a ReplicaSet about to be created
 * (`exists` false) set the replicas annotations from `desired` and `max`. True when anything changed.
 */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  newRevision: string,
  exists: boolean,
  replicas: { desired: number; max: number },
  historyLimit = MAX_REV_HISTORY_LENGTH,
): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const a = annotationsOf(rs);
  const had = REVISION_ANNOTATION in a;
  const oldRevision = a[REVISION_ANNOTATION] ?? '';
  if (oldRevision !== '' && !INT.test(oldRevision)) return false;
  const oldInt = oldRevision === '' ? 0 : Number(oldRevision);
  if (!INT.test(newRevision)) return false;
  const newInt = Number(newRevision);
  if (oldInt < newInt) {
    a[REVISION_ANNOTATION] = newRevision;
    changed = true;
  }
  if (had && oldInt < newInt) {
    const history = a[REVISION_HISTORY_ANNOTATION] ?? '';
    const old = history.split(',');
    if (old[0]!.length === 0) a[REVISION_HISTORY_ANNOTATION] = oldRevision;
    else {
      let total = history.length + oldRevision.length + 1;
      let start = 0;
      while (total > historyLimit && start < old.length) total -= old[start++]!.length + 1;
      if (total <= historyLimit) a[REVISION_HISTORY_ANNOTATION] = [...old.slice(start), oldRevision].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicas.desired, replicas.max)) changed = true;
  return changed;
}

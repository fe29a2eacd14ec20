/**
 * The StatefulSet control loop around one pass over the pods (upstream 1.33
 * pkg/controller/statefulset/stateful_set_control.go UpdateStatefulSet, performUpdate,
 * getStatefulSetRevisions, truncateHistory, updateStatefulSetStatus; stateful_set_utils.go
 * completeRollingUpdate, inconsistentStatus; pkg/controller/history realHistory
 * CreateControllerRevision, UpdateControllerRevision): find or make the update revision
 * (`<set>-<hash>`, numbered after the newest; an older equal revision is renumbered, a rollback),
 * pick the current revision from status.currentRevision, run the pass, write the status when it
 * changed (completing a finished rolling update), and delete the oldest revisions no pod or
 * status uses beyond revisionHistoryLimit.
 */
import { labelSelectorOf, matchesLabels, type LabelSelectorObject } from '../../api/label-selector.js';
import { ApiError } from '../../errors/api-error.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { MAX_UNAVAILABLE_STATEFULSET } from '../../resources/statefulsets/statefulsets.defaults.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { controllerOf } from '../replicaset/workload.js';
import type { StatefulSetClient } from './client.js';
import { podRevision, replicasOf } from './identity.js';
import type { StatefulSetStatus } from './kind.js';
import { aggregate, StatefulPodControl } from './pod-control.js';
import { updateReplicas } from './replicas.js';
import {
  applyRevision,
  controllerRevisionName,
  equalRevision,
  findEqualRevisions,
  hashControllerRevision,
  newRevision,
  nextRevision,
  revisionDataJson,
  sortRevisions,
} from './revisions.js';

/** What a control pass needs. */
export interface ControlDeps {
  readonly client: StatefulSetClient;
  /** ms since the epoch (tests fix it; default Date.now()). */
  readonly now?: number;
  /**
   * Feature MaxUnavailableStatefulSet (alpha and off in 1.33, beta and on from 1.35); default
   * MAX_UNAVAILABLE_STATEFULSET, the gate this server's defaulting of rollingUpdate.maxUnavailable follows.
   */
  readonly maxUnavailableEnabled?: boolean;
}

/**
 * The set's revisions: those its selector matches that it controls or that have no controller
 * (upstream ListRevisions / ListControllerRevisions). Throws for an invalid selector.
 */
export async function listRevisions(set: StatefulSet, client: StatefulSetClient): Promise<ControllerRevision[]> {
  const selector = labelSelectorOf((set.spec?.selector ?? {}) as LabelSelectorObject);
  const uid = set.metadata.uid;
  return (await client.listRevisions(set.metadata.namespace ?? '')).filter((rev) => {
    if (!matchesLabels(selector, rev.metadata.labels)) return false;
    const ref = controllerOf(rev);
    return !ref || ref.uid === uid;
  });
}

/**
 * Create `rev`, bumping collisionCount while its name is taken by a revision with other data;
 * a revision of the same name and data is returned as it is (upstream CreateControllerRevision).
 * Returns the revision and the collisionCount reached.
 */
async function createRevision(
  set: StatefulSet,
  rev: ControllerRevision,
  collisionCount: number,
  client: StatefulSetClient,
) {
  let count = collisionCount;
  for (;;) {
    const name = controllerRevisionName(set.metadata.name ?? '', hashControllerRevision(rev, count));
    const clone: ControllerRevision = { ...rev, metadata: { ...rev.metadata, name } };
    try {
      return { revision: await client.createRevision(clone), collisionCount: count };
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists')) throw err;
      const exists = await client.getRevision(set.metadata.namespace ?? '', name);
      if (revisionDataJson(exists) === revisionDataJson(clone)) return { revision: exists, collisionCount: count };
      count++;
    }
  }
}

/** Upstream getStatefulSetRevisions: the current and update revisions, and the collisionCount. */
export async function setRevisions(set: StatefulSet, sorted: ControllerRevision[], client: StatefulSetClient) {
  let collisionCount = set.status?.collisionCount ?? 0;
  let update = newRevision(set, nextRevision(sorted), collisionCount);
  const equal = findEqualRevisions(sorted, update);
  const last = sorted[sorted.length - 1];
  if (equal.length && equalRevision(last, equal[equal.length - 1])) update = last;
  else if (equal.length) update = await client.setRevisionNumber(equal[equal.length - 1], update.revision ?? 0);
  else ({ revision: update, collisionCount } = await createRevision(set, update, collisionCount, client));
  const current = sorted.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, collisionCount };
}

/**
 * Delete the revisions no pod, and neither the current nor the update revision, uses, oldest
 * first, until revisionHistoryLimit remain (upstream truncateHistory; a negative limit keeps all).
 */
async function truncateHistory(
  set: StatefulSet,
  pods: readonly Pod[],
  sorted: readonly ControllerRevision[],
  live: readonly (ControllerRevision | undefined)[],
  client: StatefulSetClient,
): Promise<void> {
  const names = new Set([...live.map((r) => r?.metadata.name), ...pods.map(podRevision)]);
  const history = sorted.filter((r) => !names.has(r.metadata.name));
  const limit = set.spec?.revisionHistoryLimit ?? 10;
  if (limit < 0 || history.length <= limit) return;
  for (const rev of history.slice(0, history.length - limit))
    await client.deleteRevision(rev.metadata.namespace ?? '', rev.metadata.name ?? '');
}

/**
 * A finished rolling update (every replica created, ready and at the update revision) makes the
 * update revision current (upstream completeRollingUpdate). Mutates `status`.
 */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
  const want = replicasOf(set);
  const type = set.spec?.updateStrategy?.type;
  if (
    type === 'RollingUpdate' &&
    status.updatedReplicas === want &&
    status.readyReplicas === want &&
    status.replicas === want
  ) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
}

/** Whether `status` differs from the set's in a field the controller writes (upstream inconsistentStatus). */
export function inconsistentStatus(set: StatefulSet, status: StatefulSetStatus): boolean {
  const cur = set.status ?? {};
  const n = (v: number | null | undefined) => v ?? 0;
  return (
    n(status.observedGeneration) > n(cur.observedGeneration) ||
    n(status.replicas) !== n(cur.replicas) ||
    n(status.currentReplicas) !== n(cur.currentReplicas) ||
    n(status.readyReplicas) !== n(cur.readyReplicas) ||
    n(status.updatedReplicas) !== n(cur.updatedReplicas) ||
    (status.currentRevision ?? '') !== (cur.currentRevision ?? '') ||
    n(status.availableReplicas) !== n(cur.availableReplicas) ||
    (status.updateRevision ?? '') !== (cur.updateRevision ?? '')
  );
}

/**
 * One control pass of `set` over its claimed `pods` (upstream UpdateStatefulSet). Returns the
 * status reached (written when it changed); throws the errors of the pass, the status write
 * and the history truncation together.
 */
export async function updateStatefulSet(
  set: StatefulSet,
  pods: readonly Pod[],
  deps: ControlDeps,
): Promise<StatefulSetStatus | undefined> {
  const { client } = deps;
  const sorted = sortRevisions(await listRevisions(set, client));
  const errors: unknown[] = [];
  let current: ControllerRevision | undefined;
  let update: ControllerRevision | undefined;
  let status: StatefulSetStatus | undefined;
  try {
    const revs = await setRevisions(set, sorted, client);
    ({ current, update } = revs);
    const podControl = new StatefulPodControl(client);
    const result = await updateReplicas(
      set,
      applyRevision(set, current),
      applyRevision(set, update),
      current,
      update,
      revs.collisionCount,
      pods,
      {
        podControl,
        now: deps.now ?? Date.now(),
        maxUnavailableEnabled: deps.maxUnavailableEnabled ?? MAX_UNAVAILABLE_STATEFULSET,
      },
    );
    status = result.status;
    if (result.error !== undefined) errors.push(result.error);
    completeRollingUpdate(set, status);
    if (inconsistentStatus(set, status)) await client.writeStatus(set, status);
  } catch (err) {
    errors.push(err);
  }
  try {
    await truncateHistory(set, pods, sorted, [current, update], client);
  } catch (err) {
    errors.push(err);
  }
  if (errors.length) throw aggregate(errors);
  return status;
}

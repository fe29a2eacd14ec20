/**
 * A DaemonSet's revision history (upstream 1.33 pkg/controller/daemon/update.go
 * constructHistory, controlledHistories, dedupCurHistories, snapshot, Match, getPatch,
 * cleanupHistory): each pod template the DaemonSet had is a ControllerRevision
 * `<ds>-<hash>` it controls, labelled `controller-revision-hash: <hash>`, whose data is the patch
 * `{"spec":{"template":{..., "$patch":"replace"}}}` that restores it (what `kubectl rollout
 * undo daemonset` applies). The current one has the highest revision; old ones beyond
 * revisionHistoryLimit are deleted oldest first unless a pod still runs them.
 */
import { deepCopy } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { DaemonSet } from '../../resources/daemonsets/daemonsets.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { canonicalJson, computeHash } from '../deployment/hash.js';
import { claimPods, recheckDeletionTimestamp } from '../replicaset/claim.js';
import type { Workload } from '../replicaset/workload.js';
import { CONTROLLER_REVISION_HASH } from './daemonset-util.js';
import { daemonSetRef, selectorOf } from './pods.js';
import type { DaemonSetClient } from './types.js';

/** Upstream getPatch: the patch that restores the DaemonSet's pod template. */
export function revisionData(ds: DaemonSet): Record<string, unknown> {
  return { spec: { template: { ...deepCopy(ds.spec?.template ?? {}), $patch: 'replace' } } };
}

/** Upstream Match: whether `rev` holds the DaemonSet's current template (compared as canonical JSON). */
export function matchesRevision(ds: DaemonSet, rev: ControllerRevision): boolean {
  return canonicalJson(revisionData(ds)) === canonicalJson(rev.data ?? null);
}

/** The cast claimPods needs: it reads only the owner's metadata, shared by every kind. */
const asOwner = (ds: DaemonSet) => ds as unknown as Workload;

/**
 * Upstream controlledHistories: the namespace's revisions the DaemonSet controls after
 * claiming (orphans matching its selector adopted, owned ones no longer matching released).
 */
export async function controlledHistories(ds: DaemonSet, client: DaemonSetClient): Promise<ControllerRevision[]> {
  const ns = ds.metadata.namespace ?? '';
  const all = await client.listRevisions(ns);
  const claimed = await claimPods(
    asOwner(ds),
    selectorOf(ds),
    daemonSetRef(ds),
    all as unknown as Pod[],
    {
      adoptPod: (rev, ref) => client.adoptRevision(rev as unknown as ControllerRevision, ref),
      releasePod: (rev, uid) => client.releaseRevision(rev as unknown as ControllerRevision, uid),
    },
    () =>
      recheckDeletionTimestamp(asOwner(ds), 'DaemonSet', async () =>
        asOwner(await client.getDaemonSetFresh(ns, ds.metadata.name ?? '')),
      ),
  );
  return claimed as unknown as ControllerRevision[];
}

const revisionOf = (rev: ControllerRevision) => rev.revision ?? 0;

/** Upstream maxRevision: the highest revision number, 0 for none. */
export function maxRevision(revs: readonly ControllerRevision[]): number {
  return revs.reduce((m, r) => Math.max(m, revisionOf(r)), 0);
}

/**
 * Upstream constructHistory: the current revision (created when none holds the template, its
 * number raised above every old one when needed, duplicates merged) and the old ones. Revisions
 * without the hash label get it (their name). Throws ApiError / Error of the writes.
 */
export async function constructHistory(
  ds: DaemonSet,
  client: DaemonSetClient,
  pods: () => Promise<Pod[]>,
): Promise<{ cur: ControllerRevision; old: ControllerRevision[] }> {
  const current: ControllerRevision[] = [];
  const old: ControllerRevision[] = [];
  for (let rev of await controlledHistories(ds, client)) {
    if (rev.metadata.labels?.[CONTROLLER_REVISION_HASH] === undefined) {
      const labels = { ...rev.metadata.labels, [CONTROLLER_REVISION_HASH]: rev.metadata.name ?? '' };
      rev = await client.updateRevision({ ...rev, metadata: { ...rev.metadata, labels } });
    }
    (matchesRevision(ds, rev) ? current : old).push(rev);
  }
  const next = maxRevision(old) + 1;
  if (!current.length) return { cur: await snapshot(ds, next, client), old };
  let cur = await dedupCurHistories(ds, current, client, pods);
  if (revisionOf(cur) < next) cur = await client.updateRevision({ ...cur, revision: next });
  return { cur, old };
}

/**
 * Upstream dedupCurHistories: of several revisions holding the template keep the highest,
 * relabel the DaemonSet's pods to its hash, and delete the others.
 */
async function dedupCurHistories(
  ds: DaemonSet,
  current: readonly ControllerRevision[],
  client: DaemonSetClient,
  pods: () => Promise<Pod[]>,
): Promise<ControllerRevision> {
  if (current.length === 1) return current[0];
  let keep = current[0];
  for (const rev of current) if (revisionOf(rev) >= revisionOf(keep)) keep = rev;
  const hash = keep.metadata.labels?.[CONTROLLER_REVISION_HASH] ?? '';
  const ns = ds.metadata.namespace ?? '';
  for (const pod of await pods())
    if (pod.metadata.labels?.[CONTROLLER_REVISION_HASH] !== hash)
      await client.labelPod(ns, pod.metadata.name ?? '', { [CONTROLLER_REVISION_HASH]: hash });
  for (const rev of current) if (rev !== keep) await client.deleteRevision(ns, rev.metadata.name ?? '');
  return keep;
}

/**
 * Upstream snapshot: create revision `revision` of the current template, named
 * `<ds>-<hash of template and collisionCount>`. When the name is taken by another template the
 * collisionCount is raised (so the next sync picks another name) and the 409 is thrown.
 */
export async function snapshot(ds: DaemonSet, revision: number, client: DaemonSetClient): Promise<ControllerRevision> {
  const ns = ds.metadata.namespace ?? '';
  const hash = computeHash(ds.spec?.template, ds.status?.collisionCount);
  const name = `${ds.metadata.name}-${hash}`;
  const rev: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: ns,
      labels: { ...(ds.spec?.template?.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH]: hash },
      ownerReferences: [daemonSetRef(ds)],
    },
    data: revisionData(ds),
    revision,
  };
  if (ds.metadata.annotations) rev.metadata.annotations = { ...ds.metadata.annotations };
  try {
    return await client.createRevision(rev);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 409 && err.reason === 'AlreadyExists')) throw err;
    const existing = await client.getRevisionFresh(ns, name);
    if (matchesRevision(ds, existing)) return existing;
    const fresh = await client.getDaemonSetFresh(ns, ds.metadata.name ?? '');
    const seen = ds.status?.collisionCount ?? undefined;
    const stored = fresh.status?.collisionCount ?? undefined;
    if (seen !== stored)
      throw new Error(
        `found a stale collision count (${seen}, expected ${stored}) of DaemonSet ${JSON.stringify(ds.metadata.name)} while processing; will retry until it is updated`,
        { cause: err },
      );
    await client.setCollisionCount(fresh, (stored ?? 0) + 1);
    throw err;
  }
}

/**
 * Upstream cleanupHistory: delete old revisions beyond spec.revisionHistoryLimit (default 10),
 * lowest revision first, skipping those whose hash a pod of `pods` still carries.
 */
export async function cleanupHistory(
  ds: DaemonSet,
  old: readonly ControllerRevision[],
  pods: readonly Pod[],
  client: DaemonSetClient,
): Promise<void> {
  let toKill = old.length - (ds.spec?.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return;
  const live = new Set(pods.map((p) => p.metadata.labels?.[CONTROLLER_REVISION_HASH]).filter(Boolean));
  for (const rev of [...old].sort((a, b) => revisionOf(a) - revisionOf(b))) {
    if (toKill <= 0) break;
    if (live.has(rev.metadata.labels?.[CONTROLLER_REVISION_HASH])) continue;
    await client.deleteRevision(ds.metadata.namespace ?? '', rev.metadata.name ?? '');
    toKill--;
  }
}

/**
 * One sync of a StatefulSet key (upstream 1.33 pkg/controller/statefulset/stateful_set.go sync,
 * adoptOrphanRevisions, getPodsForStatefulSet, canAdoptFunc, syncStatefulSet): adopt the
 * orphan ControllerRevisions the selector matches, claim the namespace's pods that the selector
 * matches and whose names make them members (`<set>-<ordinal>`), releasing owned pods that are
 * not, run the control pass, and ask for a resync after minReadySeconds while pods are ready
 * but not yet available.
 */
import { labelSelectorOf, type LabelSelector, type LabelSelectorObject } from '../../api/label-selector.js';
import { ApiError } from '../../errors/api-error.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { claimPods, recheckDeletionTimestamp } from '../replicaset/claim.js';
import { controllerOf, type Workload } from '../replicaset/workload.js';
import type { StatefulSetClient } from './client.js';
import { listRevisions, updateStatefulSet, type ControlDeps } from './control.js';
import { isMemberOf, replicasOf } from './identity.js';
import { setControllerRef, STATEFUL_SET_KIND } from './kind.js';

/** What the queue is asked: sync again after this many ms. */
export interface SyncResult {
  readonly requeueAfterMs?: number;
}

/** The check before adopting: the set read fresh has the same uid and is not being deleted (upstream canAdoptFunc). */
function canAdopt(set: StatefulSet, client: StatefulSetClient): () => Promise<void> {
  const ns = set.metadata.namespace ?? '';
  const name = set.metadata.name ?? '';
  return () =>
    recheckDeletionTimestamp(set as unknown as Workload, STATEFUL_SET_KIND.kind, async () => {
      return (await client.getSetFresh(ns, name)) as unknown as Workload;
    });
}

/** Adopt the set's orphan revisions (upstream adoptOrphanRevisions). Throws. */
export async function adoptOrphanRevisions(set: StatefulSet, client: StatefulSetClient): Promise<void> {
  const orphans = (await listRevisions(set, client)).filter((r) => !controllerOf(r));
  if (!orphans.length) return;
  try {
    await canAdopt(set, client)();
  } catch (err) {
    throw new Error(`can't adopt ControllerRevisions: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const ref = setControllerRef(set);
  for (const rev of orphans) await client.adoptRevision(rev, ref);
}

/**
 * The pods the set controls after claiming (upstream getPodsForStatefulSet with ClaimPods and
 * the isMemberOf filter): owned pods that are not members are released like those the selector
 * no longer matches. Throws the claim errors.
 */
export async function podsForStatefulSet(
  set: StatefulSet,
  selector: LabelSelector,
  client: StatefulSetClient,
): Promise<Pod[]> {
  const all = await client.listPods(set.metadata.namespace ?? '');
  const uid = set.metadata.uid;
  const strays = all.filter((p) => controllerOf(p)?.uid === uid && !isMemberOf(set, p));
  if (!set.metadata.deletionTimestamp)
    for (const pod of strays)
      await client.releasePod(pod, uid ?? '').catch((err) => {
        if (!(err instanceof ApiError && (err.code === 404 || err.code === 422))) throw err;
      });
  const members = all.filter((p) => isMemberOf(set, p));
  const owner = set as unknown as Workload;
  return claimPods(owner, selector, setControllerRef(set), members, client, canAdopt(set, client));
}

/** Sync `namespace/name` (upstream sync + syncStatefulSet). Throws for the queue to retry with backoff. */
export async function syncStatefulSet(namespace: string, name: string, deps: ControlDeps): Promise<SyncResult> {
  const { client } = deps;
  const set = await client.getSet(namespace, name);
  if (!set) return {};
  let selector: LabelSelector;
  try {
    selector = labelSelectorOf((set.spec?.selector ?? {}) as LabelSelectorObject);
  } catch {
    return {}; // an invalid selector is not retried (upstream logs it)
  }
  await adoptOrphanRevisions(set, client);
  const pods = await podsForStatefulSet(set, selector, client);
  const status = await updateStatefulSet(set, pods, deps);
  const minReady = set.spec?.minReadySeconds ?? 0;
  if (minReady > 0 && status && (status.availableReplicas ?? 0) !== replicasOf(set))
    return { requeueAfterMs: minReady * 1000 };
  return {};
}

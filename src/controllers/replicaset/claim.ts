/**
 * The controller-ref manager's pod claiming (upstream 1.33 pkg/controller/controller_ref_manager.go
 * BaseControllerRefManager.ClaimObject, PodControllerRefManager.ClaimPods/AdoptPod/ReleasePod,
 * RecheckDeletionTimestamp): a controller keeps the pods it owns that its selector matches,
 * releases owned pods that no longer match (unless it is being deleted), and adopts orphans
 * that match (unless it is being deleted, or they are).
 */
import { matchesLabels, type LabelSelector } from '../../api/label-selector.js';
import type { OwnerReference } from '../../api/object.js';
import { ApiError } from '../../errors/api-error.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { controllerOf, type Workload } from './workload.js';

/** The writes claiming needs (upstream PodControlInterface.PatchPod with the ownerRef patches). */
export interface ClaimWrites {
  /**
   * Add `ref` to the pod's owner references, if the pod still has `pod`'s uid and no other
   * controller. Throws ApiError (404 gone, 409 changed).
   */
  adoptPod(pod: Pod, ref: OwnerReference): Promise<void>;
  /** Remove the owner reference with `ownerUid` from the pod, if it still has `pod`'s uid. Throws ApiError. */
  releasePod(pod: Pod, ownerUid: string): Promise<void>;
}

const isCode = (err: unknown, ...codes: number[]) => err instanceof ApiError && codes.includes(err.code);

/**
 * The pods of `pods` that `owner` controls after claiming. `canAdopt` is called (once) before
 * the first adoption and throws when the owner may not adopt (it is gone or being deleted,
 * from a fresh read). Errors of adoptions and releases other than 404 (and 422 for a release)
 * are collected and thrown together after every pod was tried (as upstream's aggregate).
 */
export async function claimPods(
  owner: Workload,
  selector: LabelSelector | null,
  ownerRef: OwnerReference,
  pods: readonly Pod[],
  writes: ClaimWrites,
  canAdopt: () => Promise<void>,
): Promise<Pod[]> {
  const ownerUid = owner.metadata.uid ?? '';
  const deleting = Boolean(owner.metadata.deletionTimestamp);
  const matches = (pod: Pod) => selector !== null && matchesLabels(selector, pod.metadata.labels);
  let adoptable: Promise<void> | undefined;
  const claimed: Pod[] = [];
  const errors: unknown[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    try {
      if (ref) {
        if (ref.uid !== ownerUid) continue; // another controller's
        if (matches(pod)) claimed.push(pod);
        else if (!deleting) await writes.releasePod(pod, ownerUid).catch(ignore(404, 422));
        continue;
      }
      if (deleting || !matches(pod) || pod.metadata.deletionTimestamp) continue;
      if (pod.metadata.namespace !== owner.metadata.namespace) continue;
      adoptable ??= canAdopt();
      try {
        await adoptable;
      } catch (err) {
        const ns = pod.metadata.namespace ?? '';
        throw new Error(`can't adopt Pod ${ns}/${pod.metadata.name} (${pod.metadata.uid}): ${errorText(err)}`, {
          cause: err,
        });
      }
      await writes.adoptPod(pod, ownerRef);
      claimed.push(pod);
    } catch (err) {
      if (!isCode(err, 404)) errors.push(err);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length) throw new Error(`[${errors.map(errorText).join(', ')}]`);
  return claimed;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function ignore(...codes: number[]): (err: unknown) => void {
  return (err) => {
    if (!isCode(err, ...codes)) throw err;
  };
}

/**
 * Upstream RecheckDeletionTimestamp with the controller's fresh read: resolves when the owner
 * read again has the same uid and no deletionTimestamp; throws Error otherwise.
 */
export async function recheckDeletionTimestamp(
  owner: Workload,
  kind: string,
  fresh: () => Promise<Workload>,
): Promise<void> {
  const got = await fresh();
  const { namespace, name, uid } = owner.metadata;
  if (got.metadata.uid !== uid)
    throw new Error(`original ${kind} ${namespace}/${name} is gone: got uid ${got.metadata.uid}, wanted ${uid}`);
  if (got.metadata.deletionTimestamp)
    throw new Error(`${namespace}/${name} has just been deleted at ${got.metadata.deletionTimestamp}`);
}

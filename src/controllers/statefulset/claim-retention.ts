/**
 * persistentVolumeClaimRetentionPolicy through owner references (upstream 1.33
 * pkg/controller/statefulset/stateful_set_utils.go isClaimOwnerUpToDate,
 * updateClaimOwnerRefForSetAndPod, hasUnexpectedController, hasNonControllerOwner,
 * hasStaleOwnerRef; StatefulSetAutoDeletePVC, GA in 1.32). The garbage collector then deletes
 * a claim with its controller:
 *
 * | whenScaled / whenDeleted | claim's controller |
 * |---|---|
 * | Retain / Retain | none |
 * | Retain / Delete | the set |
 * | Delete / Retain | the pod, once scaled down (its ordinal out of range) |
 * | Delete / Delete | the pod once scaled down, the set otherwise |
 */
import type { ApiObject, OwnerReference } from '../../api/object.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { podInOrdinalRange } from './identity.js';
import { STATEFUL_SET_KIND } from './kind.js';

const POD_KIND = { apiVersion: 'v1', kind: 'Pod' } as const;
type Kind = { readonly apiVersion: string; readonly kind: string };

/** The set's policy, Retain for what is absent (upstream getPersistentVolumeClaimRetentionPolicy). */
export function retentionPolicy(set: StatefulSet): { whenDeleted: string; whenScaled: string } {
  const p = set.spec?.persistentVolumeClaimRetentionPolicy;
  return { whenDeleted: p?.whenDeleted || 'Retain', whenScaled: p?.whenScaled || 'Retain' };
}

/** Whether `ref` names `obj` of kind `kind` (apiVersion, kind and name; upstream matchesRef). */
const matchesRef = (ref: OwnerReference, obj: ApiObject, kind: Kind) =>
  ref.apiVersion === kind.apiVersion && ref.kind === kind.kind && ref.name === obj.metadata.name;

/** Whether `target` has an owner reference with `owner`'s uid (upstream hasOwnerRef). */
export const hasOwnerRef = (target: ApiObject, owner: ApiObject): boolean =>
  (target.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid);

/** Whether the claim refers to `obj` by name and kind but another uid (upstream hasStaleOwnerRef). */
export function hasStaleOwnerRef(claim: PersistentVolumeClaim, obj: ApiObject, kind: Kind): boolean {
  const ref = (claim.metadata.ownerReferences ?? []).find((r) => matchesRef(r, obj, kind));
  return ref !== undefined && ref.uid !== obj.metadata.uid;
}

/**
 * With a policy deleting anything: whether the claim has a controller other than the set and
 * pod, or a reference to them with a stale uid (upstream hasUnexpectedController).
 */
export function hasUnexpectedController(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  const policy = retentionPolicy(set);
  if (policy.whenScaled === 'Retain' && policy.whenDeleted === 'Retain') return false;
  for (const ref of claim.metadata.ownerReferences ?? []) {
    if (matchesRef(ref, set, STATEFUL_SET_KIND)) {
      if (ref.uid !== set.metadata.uid) return true;
      continue;
    }
    if (matchesRef(ref, pod, POD_KIND)) {
      if (ref.uid !== pod.metadata.uid) return true;
      continue;
    }
    if (ref.controller) return true;
  }
  return false;
}

/** Whether the set or pod owns the claim without being its controller (upstream hasNonControllerOwner). */
const hasNonControllerOwner = (claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod) =>
  (claim.metadata.ownerReferences ?? []).some(
    (r) => (r.uid === set.metadata.uid || r.uid === pod.metadata.uid) && !r.controller,
  );

/**
 * Whether the claim's owner references follow the set's policy for this pod (upstream
 * isClaimOwnerUpToDate). A claim with stale references, or another controller and no reference
 * to the set or pod, is left alone (counts as up to date).
 */
export function isClaimOwnerUpToDate(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): boolean {
  if (hasStaleOwnerRef(claim, set, STATEFUL_SET_KIND) || hasStaleOwnerRef(claim, pod, POD_KIND)) return true;
  if (hasUnexpectedController(claim, set, pod)) return !(hasOwnerRef(claim, set) || hasOwnerRef(claim, pod));
  if (hasNonControllerOwner(claim, set, pod)) return false;
  const { whenScaled, whenDeleted } = retentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const bySet = hasOwnerRef(claim, set);
  const byPod = hasOwnerRef(claim, pod);
  if (whenScaled === 'Delete' && whenDeleted === 'Delete') return scaledDown !== bySet && scaledDown === byPod;
  if (whenScaled === 'Delete' && whenDeleted === 'Retain') return !bySet && scaledDown === byPod;
  if (whenScaled === 'Retain' && whenDeleted === 'Delete') return bySet && !byPod;
  return !bySet && !byPod; // Retain/Retain, and an unknown policy treated as Retain
}

/**
 * The claim's owner references made to follow the policy (upstream
 * updateClaimOwnerRefForSetAndPod): references to the set and pod removed, then the controller
 * reference the policy asks for added (none when another controller holds the claim). Returns
 * the new list; `claim` is left alone.
 */
export function claimOwnerRefsFor(claim: PersistentVolumeClaim, set: StatefulSet, pod: Pod): OwnerReference[] {
  const unexpected = hasUnexpectedController(claim, set, pod);
  let refs = (claim.metadata.ownerReferences ?? []).filter(
    (r) => !matchesRef(r, set, STATEFUL_SET_KIND) && !matchesRef(r, pod, POD_KIND),
  );
  if (unexpected) return refs;
  const { whenScaled, whenDeleted } = retentionPolicy(set);
  const scaledDown = !podInOrdinalRange(pod, set);
  const add = (owner: ApiObject, kind: Kind) => {
    if (refs.some((r) => r.uid === owner.metadata.uid)) return;
    const name = owner.metadata.name ?? '';
    const uid = owner.metadata.uid ?? '';
    refs = [...refs, { ...kind, name, uid, controller: true, blockOwnerDeletion: true }];
  };
  if (whenScaled === 'Retain' && whenDeleted === 'Delete') add(set, STATEFUL_SET_KIND);
  if (whenScaled === 'Delete' && scaledDown) add(pod, POD_KIND);
  if (whenScaled === 'Delete' && whenDeleted === 'Delete' && !scaledDown) add(set, STATEFUL_SET_KIND);
  return refs;
}

/**
 * Volume binding rules shared by the PV controller, the simulated provisioner and the
 * scheduler's VolumeBinding plugin (upstream component-helpers storage/volume helpers.go and
 * pv_helpers.go, pkg/controller/volume/persistentvolume/util/util.go FindMatchingVolume and
 * index.go findByClaim): the annotations, the class of a claim or volume, and which volume a
 * claim may bind to.
 */
import { compareQuantities, parseQuantity, type Quantity } from '../../api/quantity.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { selectorMatches, termMatches } from '../scheduler/framework.js';

/** Set on both sides once the controller bound them (upstream AnnBindCompleted). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** Set on a side the controller (not the user) bound (upstream AnnBoundByController). */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** The provisioner asked to provision a claim (upstream AnnStorageProvisioner and its beta). */
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
/** The node the scheduler chose for a WaitForFirstConsumer claim (upstream AnnSelectedNode). */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** The provisioner that made a volume (upstream AnnDynamicallyProvisioned). */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
/** The deprecated class annotation that takes precedence over storageClassName. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
/** A class's default marker (upstream IsDefaultStorageClassAnnotation and its beta). */
export const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
export const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
/** The provisioner of classes whose volumes are only made by hand (upstream NotSupportedProvisioner). */
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

const has = (obj: { metadata: { annotations?: Record<string, string> | null } }, key: string) =>
  Object.prototype.hasOwnProperty.call(obj.metadata.annotations ?? {}, key);

/** Whether an object carries annotation `key` (upstream metav1.HasAnnotation). */
export const hasAnnotation = has;

/** The class a claim asks for: the beta annotation, else spec.storageClassName, else "" (GetPersistentVolumeClaimClass). */
export function claimClass(claim: PersistentVolumeClaim): string {
  if (has(claim, ANN_BETA_STORAGE_CLASS)) return claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? '';
  return claim.spec?.storageClassName ?? '';
}

/** Whether a claim names a class at all (upstream PersistentVolumeClaimHasClass). */
export const claimHasClass = (claim: PersistentVolumeClaim): boolean =>
  has(claim, ANN_BETA_STORAGE_CLASS) || (claim.spec?.storageClassName ?? null) !== null;

/** The class of a volume, as claimClass (GetPersistentVolumeClass). */
export function volumeClass(volume: PersistentVolume): string {
  if (has(volume, ANN_BETA_STORAGE_CLASS)) return volume.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] ?? '';
  return volume.spec?.storageClassName ?? '';
}

/** A storage quantity, zero when absent or unparsable. */
export function storageOf(list: Readonly<Record<string, string | number>> | null | undefined): Quantity {
  const v = list?.storage;
  try {
    return parseQuantity(v ?? 0);
  } catch {
    return parseQuantity(0);
  }
}

/** The storage a claim requests. */
export const requestedStorage = (claim: PersistentVolumeClaim): Quantity => storageOf(claim.spec?.resources?.requests);

/** Order claims by requested storage, smallest first (upstream byPVCSize). */
export const compareClaimRequests = (a: PersistentVolumeClaim, b: PersistentVolumeClaim): number =>
  compareQuantities(requestedStorage(a), requestedStorage(b));

/** Whether the volume modes differ, absent meaning Filesystem (CheckVolumeModeMismatches). */
export const volumeModeMismatch = (claim: PersistentVolumeClaim, volume: PersistentVolume): boolean =>
  (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');

/** Whether the volume offers every access mode the claim asks for (CheckAccessModes). */
export function checkAccessModes(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const offered = new Set(volume.spec?.accessModes ?? []);
  return (claim.spec?.accessModes ?? []).every((m) => offered.has(m));
}

/**
 * Whether the volume is pre-bound or bound to this claim (IsVolumeBoundToClaim): name and
 * namespace equal, and the uid too when the claimRef has one.
 */
export function isVolumeBoundToClaim(volume: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata.name || ref.namespace !== claim.metadata.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** Whether a node satisfies a volume's required node affinity (volumeutil.CheckNodeAffinity); none: any node. */
export function volumeNodeAffinityMatches(volume: PersistentVolume, node: Node): boolean {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some((t) => termMatches(t, node));
}

/**
 * The best volume for `claim` among `volumes` (upstream FindMatchingVolume): a volume pre-bound
 * to the claim wins (none when `node` is given and its affinity refuses the node); otherwise the
 * smallest Available, unclaimed volume of the claim's class, large enough, of the same volume
 * mode, matching the selector (and, with `node`, the node affinity and access modes). With
 * `delayBinding` and no node (the controller on a WaitForFirstConsumer claim) only pre-bound
 * volumes are returned. `excluded` names volumes already chosen for other claims.
 */
export function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node | undefined,
  excluded: ReadonlySet<string>,
  delayBinding: boolean,
): PersistentVolume | undefined {
  const requested = requestedStorage(claim);
  const requestedClass = claimClass(claim);
  const selector = claim.spec?.selector;
  let smallest: PersistentVolume | undefined;
  let smallestQty: Quantity | undefined;
  for (const volume of volumes) {
    if (excluded.has(volume.metadata.name ?? '')) continue;
    if (volume.spec?.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const qty = storageOf(volume.spec?.capacity);
    if (compareQuantities(qty, requested) < 0) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata.deletionTimestamp) continue;
    const affinityValid = !node || volumeNodeAffinityMatches(volume, node);
    if (isVolumeBoundToClaim(volume, claim)) return affinityValid ? volume : undefined;
    if (!node && delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector && !selectorMatches(selector, volume.metadata.labels)) continue;
    if (volumeClass(volume) !== requestedClass) continue;
    if (!affinityValid) continue;
    if (node && !checkAccessModes(claim, volume)) continue;
    if (!smallest || compareQuantities(smallestQty!, qty) > 0) {
      smallest = volume;
      smallestQty = qty;
    }
  }
  return smallest;
}

/**
 * The controller's choice for a claim (upstream persistentVolumeOrderedIndex.findByClaim): the
 * volumes whose access modes include all the claim asks for, grouped by their set of modes and
 * tried fewest modes first; the first group with a match answers.
 */
export function findBestMatchForClaim(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  const groups = new Map<string, PersistentVolume[]>();
  for (const v of volumes) {
    if (!checkAccessModes(claim, v)) continue;
    const key = [...new Set(v.spec?.accessModes ?? [])].sort().join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(v);
  }
  const ordered = [...groups].sort((a, b) => a[0].split(',').length - b[0].split(',').length);
  for (const [, group] of ordered) {
    const found = findMatchingVolume(claim, group, undefined, new Set(), delayBinding);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why a requested volume cannot serve the claim, or undefined when it can (upstream
 * checkVolumeSatisfyClaim's messages).
 */
export function volumeSatisfyClaimError(volume: PersistentVolume, claim: PersistentVolumeClaim): string | undefined {
  if (volume.metadata.deletionTimestamp) return `the volume is marked for deletion "${volume.metadata.name}"`;
  if (compareQuantities(storageOf(volume.spec?.capacity), requestedStorage(claim)) < 0)
    return 'requested PV is too small';
  if (volumeClass(volume) !== claimClass(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
  if (!checkAccessModes(claim, volume)) return 'incompatible accessMode';
  return undefined;
}

/**
 * Whether binding of the claim waits for a pod (upstream IsDelayBindingMode): its class exists
 * and has volumeBindingMode WaitForFirstConsumer. A claim without class, or of a class not
 * found, binds at once.
 */
export function isDelayBindingMode(claim: PersistentVolumeClaim, classOf: (name: string) => StorageClass | undefined) {
  const name = claimClass(claim);
  if (!name) return false;
  return classOf(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** Whether the scheduler chose a node for the claim's provisioning (IsDelayBindingProvisioning). */
export const isDelayBindingProvisioning = (claim: PersistentVolumeClaim): boolean =>
  !!claim.metadata.annotations?.[ANN_SELECTED_NODE];

/** A claimRef to `claim` (upstream reference.GetReference). */
export function claimRefOf(claim: PersistentVolumeClaim) {
  return {
    kind: 'PersistentVolumeClaim',
    namespace: claim.metadata.namespace ?? '',
    name: claim.metadata.name ?? '',
    uid: claim.metadata.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: claim.metadata.resourceVersion ?? '',
  };
}

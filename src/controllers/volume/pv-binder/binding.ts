/**
 * The PV controller's writes of a binding (upstream pv_controller.go bind, bindVolumeToClaim,
 * bindClaimToVolume, unbindVolume, updateClaimStatus(WithEvent), updateVolumePhase(WithEvent)):
 * each written only when something changes.
 */
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  claimRefOf,
  hasAnnotation,
  isVolumeBoundToClaim,
} from '../volume-util.js';
import type { VolumeClient, VolumeEvent } from './client.js';

export type ClaimPhase = 'Pending' | 'Bound' | 'Lost';
export type VolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';

const clone = <T>(o: T): T => structuredClone(o);
const annotate = (o: { metadata: { annotations?: Record<string, string> | null } }, key: string, value: string) => {
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [key]: value };
};

/** Bind both sides and set both phases to Bound (upstream bind). */
export async function bind(
  client: VolumeClient,
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): Promise<void> {
  const v = await bindVolumeToClaim(client, volume, claim);
  const bound = await updateVolumePhase(client, v, 'Bound');
  const cl = await bindClaimToVolume(client, claim, bound);
  await updateClaimStatus(client, cl, 'Bound', bound);
}

export async function bindVolumeToClaim(
  client: VolumeClient,
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): Promise<PersistentVolume> {
  const byController = !isVolumeBoundToClaim(volume, claim);
  const next = clone(volume);
  let dirty = false;
  const ref = volume.spec?.claimRef;
  if (
    !ref ||
    ref.name !== claim.metadata.name ||
    ref.namespace !== claim.metadata.namespace ||
    ref.uid !== claim.metadata.uid
  ) {
    next.spec = { ...next.spec, claimRef: claimRefOf(claim) };
    dirty = true;
  }
  if (byController && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
    annotate(next, ANN_BOUND_BY_CONTROLLER, 'yes');
    dirty = true;
  }
  return dirty ? client.updateVolume(next) : volume;
}

export async function bindClaimToVolume(client: VolumeClient, claim: PersistentVolumeClaim, volume: PersistentVolume) {
  const next = clone(claim);
  let dirty = false;
  if (claim.spec?.volumeName !== volume.metadata.name) {
    next.spec = { ...next.spec, volumeName: volume.metadata.name };
    if (!hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) annotate(next, ANN_BOUND_BY_CONTROLLER, 'yes');
    dirty = true;
  }
  if (!hasAnnotation(next, ANN_BIND_COMPLETED)) {
    annotate(next, ANN_BIND_COMPLETED, 'yes');
    dirty = true;
  }
  return dirty ? client.updateClaim(next) : claim;
}

/** Undo a binding the controller made (upstream unbindVolume): claimRef cleared, Available. */
export async function unbindVolume(client: VolumeClient, volume: PersistentVolume): Promise<void> {
  const next = clone(volume);
  if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) {
    const { claimRef: _ref, ...spec } = next.spec ?? {};
    next.spec = spec;
    const { [ANN_BOUND_BY_CONTROLLER]: _a, ...annotations } = next.metadata.annotations ?? {};
    next.metadata.annotations = annotations;
  } else if (next.spec?.claimRef) {
    next.spec.claimRef = { ...next.spec.claimRef, uid: '' };
  }
  await updateVolumePhase(client, await client.updateVolume(next), 'Available');
}

/** Upstream updateClaimStatus(WithEvent): phase, and access modes and capacity of the volume. */
export async function updateClaimStatus(
  client: VolumeClient,
  claim: PersistentVolumeClaim,
  phase: ClaimPhase,
  volume: PersistentVolume | undefined,
  event?: VolumeEvent,
): Promise<PersistentVolumeClaim> {
  const status = { ...(claim.status ?? {}) };
  let dirty = status.phase !== phase;
  status.phase = phase;
  if (!volume) {
    if (status.accessModes || status.capacity) dirty = true;
    delete status.accessModes;
    delete status.capacity;
  } else {
    if (JSON.stringify(status.accessModes ?? null) !== JSON.stringify(volume.spec?.accessModes ?? null)) {
      status.accessModes = volume.spec?.accessModes;
      dirty = true;
    }
    if (claim.status?.phase !== phase && status.capacity?.storage !== volume.spec?.capacity?.storage) {
      status.capacity = volume.spec?.capacity;
      dirty = true;
    }
  }
  if (!dirty) return claim;
  if (event && claim.status?.phase !== phase) client.event(claim, event);
  return client.updateClaimStatus({ ...claim, status });
}

/** Upstream updateVolumePhase(WithEvent): written only when phase or message change. */
export async function updateVolumePhase(
  client: VolumeClient,
  volume: PersistentVolume,
  phase: VolumePhase,
  message = '',
  event?: VolumeEvent,
): Promise<PersistentVolume> {
  if (volume.status?.phase === phase && (volume.status?.message ?? '') === message) return volume;
  if (event) client.event(volume, event);
  const status = { ...(volume.status ?? {}), phase, message: message || undefined };
  if (!status.message) delete status.message;
  return client.updateVolumeStatus({ ...volume, status });
}

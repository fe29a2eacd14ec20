/**
 * The PersistentVolume controller's sync of one claim or one volume (upstream
 * pkg/controller/volume/persistentvolume/pv_controller.go syncClaim, syncUnboundClaim,
 * syncBoundClaim, syncVolume, bind, reclaimVolume, provisionClaimOperationExternal; 1.33),
 * over a {@link VolumeClient} so the table tests run without a server. Every provisioner is
 * external here (no in-tree volume plugin): a claim to provision is annotated for its class's
 * provisioner, which makes the volume; a released volume with reclaimPolicy Delete and a
 * provisioner is left to it, one without is marked Failed.
 */
import { errorMessage } from '../../../api/error-message.js';
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import {
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_DYNAMICALLY_PROVISIONED,
  ANN_STORAGE_PROVISIONER,
  claimClass,
  claimHasClass,
  findBestMatchForClaim,
  hasAnnotation,
  isDelayBindingMode,
  isDelayBindingProvisioning,
  isVolumeBoundToClaim,
  volumeModeMismatch,
  volumeSatisfyClaimError,
} from '../volume-util.js';
import { pickDefaultClass } from '../../../admission/default-storage-class.js';
import { bind, unbindVolume, updateClaimStatus, updateVolumePhase } from './binding.js';
import type { VolumeClient } from './client.js';

export type { VolumeClient, VolumeEvent } from './client.js';

const clone = <T>(o: T): T => structuredClone(o);
const keyOfClaim = (c: PersistentVolumeClaim) => `${c.metadata.namespace}/${c.metadata.name}`;
const annotate = (o: { metadata: { annotations?: Record<string, string> | null } }, key: string, value: string) => {
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [key]: value };
};

/** The upstream messages the sync reports. */
export const MESSAGES = {
  waitForFirstConsumer: 'waiting for first consumer to be created before binding',
  noClass: 'no persistent volumes available for this claim and no storage class is set',
  claimLostReference: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
  claimLostVolume: 'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
  claimMisbound: 'Two claims are bound to the same volume, this one is bound incorrectly',
  externalProvisioning: (p: string) =>
    `Waiting for a volume to be created either by the external provisioner '${p}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
};

export class PvSync {
  constructor(private readonly client: VolumeClient) {}

  /** Upstream syncClaim: a claim not yet bind-completed is bound, a bound one checked. */
  async syncClaim(claim: PersistentVolumeClaim): Promise<void> {
    if (!hasAnnotation(claim, ANN_BIND_COMPLETED)) return this.syncUnboundClaim(claim);
    return this.syncBoundClaim(claim);
  }

  private async syncUnboundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const c = this.client;
    if (!claim.spec?.volumeName) {
      // RetroactiveDefaultStorageClass (GA 1.28): a claim without any class gets the default.
      if (!claimHasClass(claim)) {
        const def = pickDefaultClass(c.listClasses());
        if (def) {
          const next = clone(claim);
          next.spec = { ...next.spec, storageClassName: def.metadata.name };
          await c.updateClaim(next);
          return;
        }
      }
      const delayBinding = isDelayBindingMode(claim, (n) => c.getClass(n));
      const volume = findBestMatchForClaim(claim, c.listVolumes(), delayBinding);
      if (volume) return bind(this.client, volume, claim);
      if (delayBinding && !isDelayBindingProvisioning(claim)) {
        c.event(claim, { type: 'Normal', reason: 'WaitForFirstConsumer', message: MESSAGES.waitForFirstConsumer });
      } else if (claimClass(claim)) {
        return this.provisionClaim(claim);
      } else {
        c.event(claim, { type: 'Normal', reason: 'FailedBinding', message: MESSAGES.noClass });
      }
      await updateClaimStatus(this.client, claim, 'Pending', undefined);
      return;
    }
    const volume = c.getVolume(claim.spec.volumeName);
    if (!volume) {
      await updateClaimStatus(this.client, claim, 'Pending', undefined);
      return;
    }
    if (!volume.spec?.claimRef) {
      const why = volumeSatisfyClaimError(volume, claim);
      if (!why) return bind(this.client, volume, claim);
      c.event(claim, {
        type: 'Warning',
        reason: 'VolumeMismatch',
        message: `Cannot bind to requested volume "${volume.metadata.name}": ${why}`,
      });
      await updateClaimStatus(this.client, claim, 'Pending', undefined);
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) return bind(this.client, volume, claim);
    if (!hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) {
      await updateClaimStatus(this.client, claim, 'Pending', undefined);
      return;
    }
    throw new Error(
      `invalid binding of claim "${keyOfClaim(claim)}" to volume "${volume.metadata.name}": volume already claimed by "${volume.spec.claimRef.namespace}/${volume.spec.claimRef.name}"`,
    );
  }

  private async syncBoundClaim(claim: PersistentVolumeClaim): Promise<void> {
    const c = this.client;
    const lost = (message: string, reason = 'ClaimLost') =>
      updateClaimStatus(this.client, claim, 'Lost', undefined, { type: 'Warning', reason, message });
    if (!claim.spec?.volumeName) return void (await lost(MESSAGES.claimLostReference));
    const volume = c.getVolume(claim.spec.volumeName);
    if (!volume) return void (await lost(MESSAGES.claimLostVolume));
    if (!volume.spec?.claimRef || volume.spec.claimRef.uid === claim.metadata.uid)
      return bind(this.client, volume, claim);
    await lost(MESSAGES.claimMisbound, 'ClaimMisbound');
  }

  /** Upstream syncVolume. */
  async syncVolume(volume: PersistentVolume): Promise<void> {
    const c = this.client;
    const ref = volume.spec?.claimRef;
    if (!ref || !ref.uid) {
      await updateVolumePhase(this.client, volume, 'Available');
      return;
    }
    const phase = volume.status?.phase;
    let claim = await c.getClaim(ref.namespace ?? '', ref.name ?? '');
    if (!claim && phase !== 'Released' && phase !== 'Failed')
      claim = await c.getClaim(ref.namespace ?? '', ref.name ?? '', true);
    if (claim && claim.metadata.uid !== ref.uid) {
      const fresh = await c.getClaim(ref.namespace ?? '', ref.name ?? '', true);
      claim = fresh && fresh.metadata.uid === ref.uid ? fresh : undefined;
    }
    if (!claim) {
      let v = volume;
      if (phase !== 'Released' && phase !== 'Failed') v = await updateVolumePhase(this.client, volume, 'Released');
      await this.reclaimVolume(v);
      return;
    }
    if (!claim.spec?.volumeName) {
      if (volumeModeMismatch(claim, volume)) {
        c.event(volume, {
          type: 'Warning',
          reason: 'VolumeMismatch',
          message: `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata.name}" due to incompatible volumeMode.`,
        });
        c.event(claim, {
          type: 'Warning',
          reason: 'VolumeMismatch',
          message: `Cannot bind PersistentVolume "${volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        });
        return;
      }
      c.enqueueClaim(keyOfClaim(claim));
      return;
    }
    if (claim.spec.volumeName === volume.metadata.name) {
      await updateVolumePhase(this.client, volume, 'Bound');
      return;
    }
    if (hasAnnotation(volume, ANN_DYNAMICALLY_PROVISIONED) && volume.spec?.persistentVolumeReclaimPolicy === 'Delete') {
      let v = volume;
      if (phase !== 'Released' && phase !== 'Failed') v = await updateVolumePhase(this.client, volume, 'Released');
      await this.reclaimVolume(v);
      return;
    }
    if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) {
      await unbindVolume(this.client, volume);
      return;
    }
    c.enqueueClaim(keyOfClaim(claim));
  }

  /** Upstream reclaimVolume for external plugins: Retain keeps, Delete waits for the provisioner. */
  private async reclaimVolume(volume: PersistentVolume): Promise<void> {
    const policy = volume.spec?.persistentVolumeReclaimPolicy;
    if (policy === 'Retain' || !policy) return;
    if (policy === 'Recycle') {
      const message = 'No recycler plugin found for the volume!';
      await updateVolumePhase(this.client, volume, 'Failed', message, {
        type: 'Warning',
        reason: 'VolumeFailedRecycle',
        message,
      });
      return;
    }
    if (hasAnnotation(volume, ANN_DYNAMICALLY_PROVISIONED)) return; // its external deleter's job
    const message = `error getting deleter volume plugin for volume "${volume.metadata.name}": no deletable volume plugin matched`;
    await updateVolumePhase(this.client, volume, 'Failed', message, {
      type: 'Warning',
      reason: 'VolumeFailedDelete',
      message,
    });
  }

  /** Ask the class's provisioner for a volume (upstream provisionClaim, external path). */
  private async provisionClaim(claim: PersistentVolumeClaim): Promise<void> {
    const c = this.client;
    const name = claimClass(claim);
    const cls = c.getClass(name);
    if (!cls) {
      const message = `storageclass.storage.k8s.io "${name}" not found`;
      c.event(claim, { type: 'Warning', reason: 'ProvisioningFailed', message });
      throw new Error(message);
    }
    const provisioner = cls.provisioner ?? '';
    let current = claim;
    if (claim.metadata.annotations?.[ANN_STORAGE_PROVISIONER] !== provisioner) {
      const next = clone(claim);
      annotate(next, ANN_STORAGE_PROVISIONER, provisioner);
      annotate(next, ANN_BETA_STORAGE_PROVISIONER, provisioner);
      try {
        current = await c.updateClaim(next);
      } catch (err) {
        c.event(claim, {
          type: 'Warning',
          reason: 'ProvisioningFailed',
          message: `Error saving claim: ${errorMessage(err)}`,
        });
        throw err;
      }
    }
    c.event(current, {
      type: 'Normal',
      reason: 'ExternalProvisioning',
      message: MESSAGES.externalProvisioning(provisioner),
    });
  }
}

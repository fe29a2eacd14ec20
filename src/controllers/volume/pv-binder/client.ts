/**
 * What the PV controller's sync reads and writes (upstream's listers and clientset calls): the
 * interface the registry-backed controller and the tests' fake implement.
 */
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../../resources/storageclasses/storageclasses.schema.js';

/** An event about a claim or a volume (reason and message as upstream's recorder gets them). */
export interface VolumeEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/** What the sync reads and writes (upstream's listers and clientset calls). */
export interface VolumeClient {
  getClass(name: string): StorageClass | undefined;
  listClasses(): readonly StorageClass[];
  listVolumes(): readonly PersistentVolume[];
  getVolume(name: string): PersistentVolume | undefined;
  /** The claim from the cache, or with `fresh` from the store (upstream's double check). */
  getClaim(namespace: string, name: string, fresh?: boolean): Promise<PersistentVolumeClaim | undefined>;
  /** Write a volume's metadata and spec; answers the object stored. */
  updateVolume(volume: PersistentVolume): Promise<PersistentVolume>;
  updateVolumeStatus(volume: PersistentVolume): Promise<PersistentVolume>;
  updateClaim(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  updateClaimStatus(claim: PersistentVolumeClaim): Promise<PersistentVolumeClaim>;
  event(obj: PersistentVolume | PersistentVolumeClaim, event: VolumeEvent): void;
  /** Sync this claim (`namespace/name`) soon. */
  enqueueClaim(key: string): void;
}

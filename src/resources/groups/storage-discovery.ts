/**
 * Rows of the resource table for upstream's groups (storage: storageclasses, volumeattachments,
 * csidrivers, csinodes; discovery: endpointslices); each row's kind lives in its own folder
 * under src/resources/. StorageClasses and VolumeAttachments are stored as storage.k8s.io/v1
 * and served at the other versions (and under the spec's storage.ck.io) through a
 * VersionConversion.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { csiDrivers } from '../csidrivers/csidrivers.resource.js';
import { csiNodes } from '../csinodes/csinodes.resource.js';
import { endpointSlices } from '../endpointslices/endpointslices.resource.js';
import {
  storageClasses,
  storageClassesCkV1,
  storageClassesCkV1beta1,
  storageClassesV1beta1,
} from '../storageclasses/storageclasses.resource.js';
import {
  volumeAttachments,
  volumeAttachmentsCkV1beta1,
  volumeAttachmentsV1beta1,
} from '../volumeattachments/volumeattachments.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  // storage.k8s.io/v1 (the storage version of every storage kind)
  csiDrivers,
  csiNodes,
  storageClasses,
  volumeAttachments,
  // storage.k8s.io/v1beta1
  storageClassesV1beta1,
  volumeAttachmentsV1beta1,
  // storage.ck.io v1 and v1beta1 (the spec's group; upstream 1.10's resources)
  storageClassesCkV1,
  storageClassesCkV1beta1,
  volumeAttachmentsCkV1beta1,
  // discovery.k8s.io/v1
  endpointSlices,
];

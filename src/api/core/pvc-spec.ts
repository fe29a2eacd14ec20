/**
 * PersistentVolumeClaimSpec (k8s.io/api core/v1 at 1.33): what a PersistentVolumeClaim and a
 * claim template (a pod's ephemeral volume, a StatefulSet's volumeClaimTemplates) ask for.
 */
import { atomic, labelSelector, list, obj, oneOf, quantityMap, reqStr, str } from './schema-kit.js';

/** The access modes of a volume (ReadWriteOncePod is GA since 1.29). */
export const ACCESS_MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] as const;

/** A list of access modes (`+listType=atomic`). */
export const accessModes = list(oneOf(ACCESS_MODES).unwrap().unwrap());

const dataSourceDocs = {
  apiGroup: 'API group of the referenced object; the core group when empty.',
  kind: 'Kind of the referenced object (PersistentVolumeClaim, VolumeSnapshot, or a populator kind).',
  name: 'Name of the referenced object.',
};

/** The fields of PersistentVolumeClaimSpec. */
export const persistentVolumeClaimSpecShape = {
  accessModes: accessModes.describe(
    'Access modes the volume must offer: ReadWriteOnce, ReadOnlyMany, ReadWriteMany or ReadWriteOncePod.',
  ),
  dataSource: atomic(
    obj({
      apiGroup: str.describe(dataSourceDocs.apiGroup),
      kind: reqStr.describe(dataSourceDocs.kind),
      name: reqStr.describe(dataSourceDocs.name),
    }),
  ).describe(
    'Object the new volume is filled from: a VolumeSnapshot, a PersistentVolumeClaim, or (mirrored from dataSourceRef) a populator object.',
  ),
  dataSourceRef: obj({
    apiGroup: str.describe(dataSourceDocs.apiGroup),
    kind: reqStr.describe(dataSourceDocs.kind),
    name: reqStr.describe(dataSourceDocs.name),
    namespace: str.describe(
      'Namespace of the referenced object (CrossNamespaceVolumeDataSource: off in 1.33, dropped).',
    ),
  }).describe(
    'Object the new volume is populated from: any object a volume populator knows; kept equal to dataSource when both are set.',
  ),
  resources: obj({ limits: quantityMap, requests: quantityMap }).describe(
    'Minimum resources the volume must have (requests.storage).',
  ),
  selector: labelSelector.describe('Label query over the volumes that may be bound.'),
  storageClassName: str.describe('Storage class wanted; the empty string asks for a volume without class.'),
  volumeAttributesClassName: str.describe(
    'VolumeAttributesClass the claim uses (VolumeAttributesClass: off in 1.33, dropped).',
  ),
  volumeMode: oneOf(['Block', 'Filesystem']).describe('Filesystem (the default) or Block.'),
  volumeName: str.describe('Name of the PersistentVolume this claim is bound to.'),
};

/** PersistentVolumeClaimSpec. */
export const persistentVolumeClaimSpec = obj(persistentVolumeClaimSpecShape);

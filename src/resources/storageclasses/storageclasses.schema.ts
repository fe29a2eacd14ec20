/** StorageClass fields (k8s.io/api storage/v1 types.go; storage/v1beta1 has the same). */
import type { ApiObject } from '../../api/object.js';
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, list, reqObj, str, strList, strMap } from '../../api/core/schema-kit.js';

/** core/v1 TopologySelectorTerm (`+structType=atomic` lists of label requirements). */
export const topologySelectorTerm = reqObj({
  matchLabelExpressions: list(
    reqObj({
      key: str.describe('The label key that the selector applies to.'),
      values: strList.describe('Values the label may have; at least one, each once.'),
    }),
  ).describe('A list of topology selector requirements by labels.'),
});

export const storageClassSchema = kindSchema({
  allowVolumeExpansion: bool.describe('Whether volumes of this class may be expanded.'),
  allowedTopologies: list(topologySelectorTerm).describe(
    'Node topologies where volumes may be dynamically provisioned; each volume plugin defines the topology keys it supports. Empty: no restriction.',
  ),
  mountOptions: strList.describe(
    'Mount options of dynamically provisioned PersistentVolumes of this class, e.g. ["ro", "soft"]. Not validated: a mount with an invalid option fails.',
  ),
  parameters: strMap.describe(
    'Parameters for the provisioner that creates volumes of this class (at most 512 entries, 256 KiB in all). Immutable.',
  ),
  provisioner: str.describe('The provisioner of volumes of this class: a qualified name. Required; immutable.'),
  reclaimPolicy: str.describe(
    'Reclaim policy of dynamically provisioned PersistentVolumes of this class: Delete (the default) or Retain. Immutable.',
  ),
  volumeBindingMode: str.describe(
    'How PersistentVolumeClaims are provisioned and bound: Immediate (the default) or WaitForFirstConsumer. Immutable.',
  ),
});

/** A StorageClass as its schema describes it. */
export type StorageClass = KindObject<typeof storageClassSchema>;

/**
 * SetDefaults_StorageClass (v1 and v1beta1): reclaimPolicy Delete, volumeBindingMode
 * Immediate. Takes any object of the kind's versions (a request before conversion too).
 */
export function defaultStorageClass(sc: ApiObject): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

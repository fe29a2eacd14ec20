/**
 * StorageClass (upstream pkg/registry/storage/storageclass): cluster-scoped, short name `sc`,
 * stored as storage.k8s.io/v1 under upstream's prefix `storageclasses` and served also at
 * storage.k8s.io/v1beta1 and at the spec's storage.ck.io v1 and v1beta1, which have the same
 * fields and defaults (reclaimPolicy Delete, volumeBindingMode Immediate). provisioner,
 * parameters, reclaimPolicy and volumeBindingMode are immutable. No status, no generation.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { sameFields } from './storage-common.js';
import { storageClassMessages } from './storageclasses.protobuf.js';
import { defaultStorageClass, storageClassSchema, type StorageClass } from './storageclasses.schema.js';
import { storageClassPrinter } from './storageclasses.table.js';
import { validateStorageClass, validateStorageClassUpdate } from './storageclasses.validation.js';

const STORAGE_VERSION = 'storage.k8s.io/v1';

export const storageClasses = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  description:
    'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.',
  plural: 'storageclasses',
  namespaced: false,
  shortNames: ['sc'],
  schema: storageClassSchema,
  printer: storageClassPrinter,
  protobuf: storageClassMessages,
  strategy: {
    defaults: defaultStorageClass,
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
});

/** StorageClass at another group version: the same fields over the storage.k8s.io/v1 storage. */
function servedAt(group: string, version: string): ResourceDefinition<StorageClass> {
  return {
    ...storageClasses,
    group,
    version,
    conversion: sameFields(`${group}/${version}`, STORAGE_VERSION, defaultStorageClass),
  };
}

export const storageClassesV1beta1 = servedAt('storage.k8s.io', 'v1beta1');
export const storageClassesCkV1 = servedAt('storage.ck.io', 'v1');
export const storageClassesCkV1beta1 = servedAt('storage.ck.io', 'v1beta1');

/**
 * CSIDriver (storage.k8s.io/v1; upstream pkg/registry/storage/csidriver): cluster-scoped, no
 * short names, no status. Defaults (SetDefaults_CSIDriver): attachRequired true,
 * podInfoOnMount false, storageCapacity false, fsGroupPolicy ReadWriteOnceWithFSType,
 * volumeLifecycleModes [Persistent], requiresRepublish false, seLinuxMount false.
 * attachRequired and volumeLifecycleModes are immutable (the other fields are mutable since
 * 1.29). An update that changes spec bumps metadata.generation (upstream's strategy sets none on
 * create). nodeAllocatableUpdatePeriodSeconds is dropped (MutableCSINodeAllocatableCount, alpha
 * and off in 1.33) unless the stored object has it.
 */
import { isDeepStrictEqual } from 'node:util';
import { defineResource } from '../define.js';
import { csiDriverMessages } from './csidrivers.protobuf.js';
import { csiDriverSchema, defaultCsiDriver, type CSIDriver } from './csidrivers.schema.js';
import { csiDriverPrinter } from './csidrivers.table.js';
import { validateCsiDriver, validateCsiDriverUpdate } from './csidrivers.validation.js';

/** Drop the gated field unless `old` already uses it. */
function dropDisabled(obj: CSIDriver, old?: CSIDriver): void {
  const inUse = old?.spec?.nodeAllocatableUpdatePeriodSeconds;
  if (obj.spec && (inUse === undefined || inUse === null)) delete obj.spec.nodeAllocatableUpdatePeriodSeconds;
}

export const csiDrivers = defineResource({
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIDriver',
  description:
    'CSIDriver captures information about a Container Storage Interface (CSI) volume driver deployed on the cluster. Its name is the driver name returned by GetPluginName().',
  plural: 'csidrivers',
  namespaced: false,
  schema: csiDriverSchema,
  printer: csiDriverPrinter,
  protobuf: csiDriverMessages,
  strategy: {
    defaults: defaultCsiDriver,
    prepareForCreate: (obj) => dropDisabled(obj),
    prepareForUpdate(obj, old) {
      dropDisabled(obj, old);
      if (!isDeepStrictEqual(obj.spec ?? null, old.spec ?? null))
        obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validate: validateCsiDriver,
    validateUpdate: validateCsiDriverUpdate,
  },
});

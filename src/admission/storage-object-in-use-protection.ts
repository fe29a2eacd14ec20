/**
 * StorageObjectInUseProtection admission (upstream plugin/pkg/admission/storage/
 * storageobjectinuseprotection, on by default upstream): a PersistentVolume created gets the
 * finalizer `kubernetes.io/pv-protection`, a PersistentVolumeClaim `kubernetes.io/pvc-protection`
 * (creates only; a finalizer already there is not added twice). The pv-protection and
 * pvc-protection controllers (src/controllers/volume/protection.ts) remove them once the object
 * is unused: install this plugin only where those controllers run, or deletes never finish.
 */
import type { ApiObject } from '../api/object.js';
import type { StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { persistentVolumeClaims } from '../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import { persistentVolumes } from '../resources/persistentvolumes/persistentvolumes.resource.js';

/** Upstream volumeutil.PVProtectionFinalizer and PVCProtectionFinalizer. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

/** The mutate step adding `finalizer` to created objects. */
export function addFinalizerOnCreate(finalizer: string): StoreHooks<ApiObject> {
  return {
    async mutate(obj, old, attrs) {
      if (old || attrs.subresource) return;
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) obj.metadata.finalizers = [...finalizers, finalizer];
    },
  };
}

/** Install the plugin on the PersistentVolume and PersistentVolumeClaim stores. */
export function installStorageObjectInUseProtection(registry: ResourceRegistry): void {
  registry.of(persistentVolumes).addAdmission(addFinalizerOnCreate(PV_PROTECTION_FINALIZER) as StoreHooks<never>);
  registry.of(persistentVolumeClaims).addAdmission(addFinalizerOnCreate(PVC_PROTECTION_FINALIZER) as StoreHooks<never>);
}

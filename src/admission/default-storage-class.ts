/**
 * DefaultStorageClass admission (upstream plugin/pkg/admission/storage/storageclass/setdefault,
 * on by default; volume/util GetDefaultClass, 1.33): a PersistentVolumeClaim created without
 * any class (no spec.storageClassName, not even "", and no beta class annotation) gets the
 * default StorageClass: the one annotated `storageclass.kubernetes.io/is-default-class: "true"`
 * (or the beta annotation), the newest when several are, ties by name ascending. No default:
 * the claim is left without class (the PV controller assigns one later, retroactively).
 */
import type { StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { buildPredicate } from '../registry/predicate.js';
import { persistentVolumeClaims } from '../resources/persistentvolumeclaims/persistentvolumeclaims.resource.js';
import type { PersistentVolumeClaim } from '../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { storageClasses } from '../resources/storageclasses/storageclasses.resource.js';
import type { StorageClass } from '../resources/storageclasses/storageclasses.schema.js';

const DEFAULT_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** Whether a class is marked default (upstream IsDefaultAnnotation: the value "true" exactly). */
export const isDefaultClass = (sc: StorageClass): boolean =>
  DEFAULT_ANNOTATIONS.some((a) => sc.metadata.annotations?.[a] === 'true');

/**
 * The default class among `classes` (upstream GetDefaultClass): newest creationTimestamp of
 * those marked default, ties broken by the smaller name; undefined when none is marked.
 */
export function pickDefaultClass(classes: readonly StorageClass[]): StorageClass | undefined {
  const defaults = classes.filter(isDefaultClass);
  const time = (sc: StorageClass) => Date.parse(sc.metadata.creationTimestamp ?? '') || 0;
  defaults.sort((a, b) => time(b) - time(a) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  return defaults[0];
}

/** Whether the claim names a class, "" included (upstream PersistentVolumeClaimHasClass). */
const hasClass = (pvc: PersistentVolumeClaim) =>
  Object.prototype.hasOwnProperty.call(pvc.metadata.annotations ?? {}, BETA_CLASS_ANNOTATION) ||
  (pvc.spec?.storageClassName ?? null) !== null;

/** Install the plugin on the PersistentVolumeClaim store (creates of the claim itself only). */
export function installDefaultStorageClass(registry: ResourceRegistry): void {
  const classes = registry.of(storageClasses);
  const plugin: StoreHooks<PersistentVolumeClaim> = {
    async mutate(pvc, old, attrs) {
      if (old || attrs.subresource || hasClass(pvc)) return;
      const all = await classes.list('', { predicate: buildPredicate(classes.def), resourceVersion: '0' });
      const def = pickDefaultClass(all.items as StorageClass[]);
      if (def) pvc.spec = { ...pvc.spec, storageClassName: def.metadata.name };
    },
  };
  registry.of(persistentVolumeClaims).addAdmission(plugin);
}

/**
 * The CustomResourceDefinition strategies (k8s.io/apiextensions-apiserver
 * pkg/registry/customresourcedefinition strategy.go, 1.33). Create clears the status, sets
 * generation 1 and records the storage version in `status.storedVersions`; an update keeps
 * the stored status, bumps the generation when the spec changed (semantic equality) and adds
 * a new storage version to `storedVersions`; `/status` writes keep the stored spec and are
 * checked by the status rules only. dropDisabledFields drops nothing: the fields it guards
 * (optionalOldSelf, selectableFields) are GA and on in 1.33.
 */
import type { Strategy, SubresourceDefinition } from '../../registry/types.js';
import { statusSubresource } from '../define.js';
import { defaultCustomResourceDefinition } from './customresourcedefinitions.defaults.js';
import type { CustomResourceDefinition } from './customresourcedefinitions.schema.js';
import {
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
  type SchemaDefaultsCheck,
} from './customresourcedefinitions.validation.js';
import { goEqual } from './internal.js';

/** Appends the storage version of `crd` to its stored versions when missing. */
function recordStorageVersion(crd: CustomResourceDefinition): void {
  const storage = (crd.spec?.versions ?? []).find((v) => v.storage);
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored = (status.storedVersions ??= []);
  if (!stored.includes(storage.name)) stored.push(storage.name);
}

/**
 * The main resource's strategy; `defaults` checks schema defaults on create and update (the
 * custom-resource schema code provides it; without it defaults are not checked).
 */
export function customResourceDefinitionStrategy(defaults?: SchemaDefaultsCheck): Strategy<CustomResourceDefinition> {
  return {
    defaults: defaultCustomResourceDefinition,
    prepareForCreate(obj) {
      obj.status = {};
      obj.metadata.generation = 1;
      recordStorageVersion(obj);
    },
    prepareForUpdate(obj, old) {
      if (old.status === undefined) delete obj.status;
      else obj.status = structuredClone(old.status);
      const generation = old.metadata.generation ?? 0;
      if (!goEqual(obj.spec, old.spec)) obj.metadata.generation = generation + 1;
      else obj.metadata.generation = generation;
      recordStorageVersion(obj);
    },
    validate: (obj) => validateCustomResourceDefinition(obj, defaults),
    validateUpdate: (obj, old) => validateCustomResourceDefinitionUpdate(obj, old, defaults),
  };
}

/** `/status`: the stored metadata and spec with the requested status, checked by the status rules. */
export const customResourceDefinitionStatus: SubresourceDefinition<CustomResourceDefinition> = {
  ...statusSubresource<CustomResourceDefinition>('CustomResourceDefinition'),
  validateUpdate: (obj) => validateCustomResourceDefinitionStatusUpdate(obj),
};

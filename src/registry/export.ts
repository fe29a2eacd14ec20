/**
 * `?export=true` on read (upstream 1.10 store.go Export and exportObjectMeta): strip what a
 * user cannot specify — uid, creationTimestamp, deletionTimestamp, resourceVersion, selfLink,
 * and unless `exact` the namespace and a generated name — then apply the kind's create-time
 * preparation (which clears status) unless `exact`.
 */
import { deepCopy, type ApiObject } from '../api/object.js';
import type { GenericStore } from './generic-store.js';

export function exportObject(store: GenericStore, obj: ApiObject, exact: boolean): ApiObject {
  const out = deepCopy(obj);
  const meta = out.metadata;
  for (const f of ['uid', 'deletionTimestamp', 'resourceVersion', 'selfLink'] as const) delete meta[f];
  meta.creationTimestamp = null;
  if (!exact) {
    delete meta.namespace;
    if (meta.generateName) delete meta.name;
    store.def.strategy.prepareForCreate?.(out);
  }
  return out;
}

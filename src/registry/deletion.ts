/**
 * Deletion, the one owner of the delete verb (upstream store.go Delete / DeleteCollection and
 * rest/delete.go BeforeDelete): DeleteOptions checked once per request, finalizers (an object
 * with finalizers is only marked deleting), graceful deletion and the
 * orphanDependents/propagationPolicy rules. A kind with its own deletion (namespaces) supplies
 * `deleteHandler` on its table row and finishes with {@link finalizeDelete}. It works through
 * the store's contract (ResourceStore: get, mutate, remove), which holds no deletion rule;
 * preconditions are checked by storage, within each write (storage/object-store.ts).
 */
import { rfc3339, type ApiList, type ApiObject } from '../api/object.js';
import { isStatus, successStatus } from '../api/status.js';
import { ApiError, invalid } from '../errors/api-error.js';
import { GenericStore } from './generic-store.js';
import type { DeleteRequest } from './hooks.js';
import type { ListQuery } from './store-options.js';
import type { DeleteOptions, DeleteResult, MutateOptions, ResourceStore } from './types.js';

export type { DeleteOptions, DeleteRequest, DeleteResult };

/** Finalizers the garbage collector acts on (upstream metav1.FinalizerOrphanDependents / FinalizerDeleteDependents). */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** Group of the options kinds (DeleteOptions, CreateOptions, ...) in Invalid errors. */
const META_GROUP = 'meta.k8s.io';

/** Check DeleteOptions on their own. Throws ApiError 422 (both orphan and propagation set). */
export function validateDeleteOptions(opts: DeleteOptions): void {
  const fail = (reason: 'FieldValueInvalid' | 'FieldValueNotSupported', field: string, message: string) =>
    invalid('DeleteOptions', '', [{ reason, field, message }], META_GROUP);
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    throw fail(
      'FieldValueInvalid',
      'propagationPolicy',
      'Invalid value: OrphanDependents and DeletionPropagation cannot be both set',
    );
  }
  if (opts.propagationPolicy && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
    throw fail(
      'FieldValueNotSupported',
      'propagationPolicy',
      `Unsupported value: "${opts.propagationPolicy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  if (
    opts.gracePeriodSeconds !== undefined &&
    (!Number.isInteger(opts.gracePeriodSeconds) || opts.gracePeriodSeconds < 0)
  ) {
    throw fail(
      'FieldValueInvalid',
      'gracePeriodSeconds',
      `Invalid value: ${opts.gracePeriodSeconds}: must be greater than or equal to 0`,
    );
  }
}

/**
 * Delete one object. Objects with finalizers are marked (deletionTimestamp) and returned;
 * namespaces go Terminating. A dry run answers the same without changing anything. The
 * delete's admission (the store's beforeDelete hooks) runs first on the stored object. Throws
 * ApiError 404, 409 (precondition), 403 (immortal namespace), and what admission throws.
 */
export async function deleteObject<T extends ApiObject>(
  store: ResourceStore<T>,
  namespace: string,
  name: string,
  opts: DeleteRequest,
): Promise<DeleteResult<T>> {
  validateDeleteOptions(opts);
  return deleteChecked(store, namespace, name, opts);
}

/** {@link deleteObject} once the options are checked. */
async function deleteChecked<T extends ApiObject>(
  store: ResourceStore<T>,
  namespace: string,
  name: string,
  opts: DeleteRequest,
): Promise<DeleteResult<T>> {
  if (store.def.deleteHandler) {
    if (store instanceof GenericStore) await store.admitDelete(await store.get(namespace, name), opts);
    return store.def.deleteHandler(store, name, opts);
  }
  const current = await store.get(namespace, name);
  if (store instanceof GenericStore) await store.admitDelete(current, opts);
  const gcFinalizer =
    opts.propagationPolicy === 'Foreground' ? FOREGROUND_FINALIZER : orphans(opts) ? ORPHAN_FINALIZER : undefined;
  const graceful = store.def.strategy.gracefulDelete;
  const write = { preconditions: opts.preconditions, dryRun: opts.dryRun };
  if (!gcFinalizer && !graceful && !(current.metadata.finalizers ?? []).length)
    return finalizeDelete(store, namespace, name, write);
  const grace = graceful ? graceful(current, opts.gracePeriodSeconds) : 0;
  const marked = await markDeleting(store, namespace, name, write, grace, gcFinalizer);
  if (grace === 0 && !(marked.metadata.finalizers ?? []).length) {
    return finalizeDelete(store, namespace, name, { preconditions: { uid: marked.metadata.uid }, dryRun: opts.dryRun });
  }
  return { body: marked, code: 200 };
}

/** Whether dependents are orphaned: orphanDependents, else propagationPolicy Orphan. */
function orphans(opts: DeleteOptions): boolean {
  return opts.orphanDependents ?? opts.propagationPolicy === 'Orphan';
}

/** Remove the object from storage and answer as upstream finalizeDelete does. */
export async function finalizeDelete<T extends ApiObject>(
  store: ResourceStore<T>,
  namespace: string,
  name: string,
  opts: MutateOptions = {},
): Promise<DeleteResult<T>> {
  const deleted = await store.remove(namespace, name, opts);
  if (store.def.deleteReturnsObject) return { body: deleted, code: 200 };
  const details = { name, kind: store.def.plural, uid: deleted.metadata.uid };
  return { body: successStatus(store.def.group ? { ...details, group: store.def.group } : details), code: 200 };
}

/**
 * Mark an object as being deleted (upstream BeforeDelete / markAsDeleting): deletionTimestamp
 * = now + grace, deletionGracePeriodSeconds = grace, generation bumped once, and the garbage
 * collector's finalizer added. A later delete may only shorten the grace period.
 */
async function markDeleting<T extends ApiObject>(
  store: ResourceStore<T>,
  namespace: string,
  name: string,
  write: MutateOptions,
  grace: number,
  finalizer?: string,
): Promise<T> {
  return store.mutate(
    namespace,
    name,
    (o) => {
      const meta = { ...o.metadata };
      if (finalizer && !(meta.finalizers ?? []).includes(finalizer))
        meta.finalizers = [...(meta.finalizers ?? []), finalizer];
      const current = meta.deletionGracePeriodSeconds;
      if (!meta.deletionTimestamp || (typeof current === 'number' && grace < current)) {
        if (!meta.deletionTimestamp && meta.generation) meta.generation += 1;
        meta.deletionTimestamp = rfc3339(new Date(Date.now() + grace * 1000));
        meta.deletionGracePeriodSeconds = grace;
      }
      return { ...o, metadata: meta };
    },
    { ...write, operation: 'DELETE' },
  );
}

/**
 * Delete every object the query selects, one by one; answers the list of what was deleted
 * (upstream DeleteCollection).
 */
export async function deleteCollection<T extends ApiObject>(
  store: GenericStore<T>,
  namespace: string,
  query: ListQuery,
  opts: DeleteRequest,
): Promise<ApiList<T>> {
  validateDeleteOptions(opts);
  const list = await store.list(namespace, { predicate: query.predicate, resourceVersion: query.resourceVersion });
  const deleted: T[] = [];
  for (const item of list.items) {
    try {
      const res = await deleteChecked(store, item.metadata.namespace ?? '', item.metadata.name ?? '', opts);
      deleted.push('metadata' in res.body && !isStatus(res.body) ? res.body : item);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) continue;
      throw err;
    }
  }
  return { ...list, items: deleted };
}

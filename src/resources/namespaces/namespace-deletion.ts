/**
 * Namespace deletion (upstream pkg/registry/core/namespace/storage/storage.go Delete and the
 * NamespaceLifecycle admission's immortal namespaces): the namespace's own REST delete, served
 * through its table row's `deleteHandler`.
 */
import { rfc3339 } from '../../api/object.js';
import { ApiError, forbidden } from '../../errors/api-error.js';
import { finalizeDelete } from '../../registry/deletion.js';
import type { DeleteOptions, DeleteResult, MutateOptions, ResourceStore } from '../../registry/types.js';
import type { Namespace } from './namespaces.schema.js';

/** Namespaces that always exist (upstream NamespaceLifecycle immortal namespaces). */
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

/**
 * Namespace delete (upstream pkg/registry/core/namespace/storage/storage.go): the first delete
 * sets Terminating and deletionTimestamp; while spec.finalizers remain a further delete is 409;
 * once they are gone the object is removed (honouring metadata.finalizers).
 */
export async function deleteNamespace(
  store: ResourceStore<Namespace>,
  name: string,
  opts: DeleteOptions,
): Promise<DeleteResult<Namespace>> {
  if (IMMORTAL_NAMESPACES.has(name)) throw forbidden('namespaces', name, 'this namespace may not be deleted');
  const current = await store.get('', name);
  const write: MutateOptions = {
    preconditions: { uid: current.metadata.uid, ...opts.preconditions },
    dryRun: opts.dryRun,
    operation: 'DELETE',
  };
  const specFinalizers = (current.spec?.finalizers ?? []).length;
  if (!current.metadata.deletionTimestamp) {
    const obj = await store.mutate(
      '',
      name,
      (o) => ({
        ...o,
        metadata: { ...o.metadata, deletionTimestamp: rfc3339() },
        status: { ...o.status, phase: 'Terminating' },
      }),
      write,
    );
    if (specFinalizers > 0 || (obj.metadata.finalizers ?? []).length > 0) return { body: obj, code: 200 };
  } else if (specFinalizers > 0) {
    throw new ApiError(
      409,
      'Conflict',
      'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
      { name, kind: 'namespaces' },
    );
  }
  const latest = await store.get('', name);
  if ((latest.metadata.finalizers ?? []).length > 0) return { body: latest, code: 200 };
  return finalizeDelete(store, '', name, write);
}

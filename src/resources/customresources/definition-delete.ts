/**
 * DELETE of a CustomResourceDefinition (upstream apiextensions-apiserver
 * pkg/registry/customresourcedefinition/etcd.go REST.Delete): the first request marks it
 * deleting, adds the `customresourcecleanup.apiextensions.k8s.io` finalizer and sets
 * Terminating True (`InstanceDeletionPending`), and answers the marked definition; the CRD
 * controller then deletes every instance and removes the finalizer. A UID precondition is
 * always checked (the stored UID when none is given), with upstream's conflict messages.
 */
import { rfc3339 } from '../../api/object.js';
import { conflict } from '../../errors/api-error.js';
import { finalizeDelete } from '../../registry/deletion.js';
import type { DeleteOptions, DeleteResult, ResourceStore } from '../../registry/types.js';
import type { CustomResourceDefinition } from '../customresourcedefinitions/customresourcedefinitions.schema.js';
import { CUSTOM_RESOURCE_CLEANUP_FINALIZER, setCrdCondition } from '../customresourcedefinitions/conditions.js';

/** The definitions' `deleteHandler`. Throws ApiError 404, 409 (preconditions). */
export async function deleteDefinition(
  store: ResourceStore<CustomResourceDefinition>,
  name: string,
  opts: DeleteOptions,
): Promise<DeleteResult<CustomResourceDefinition>> {
  const current = await store.get('', name);
  const { uid, resourceVersion } = current.metadata;
  const fail = (what: string) => conflict(store.def.plural, name, `precondition failed: ${what}`, store.def.group);
  const wantUid = opts.preconditions?.uid;
  if (wantUid && wantUid !== uid) throw fail(`UID in precondition: ${wantUid}, UID in object meta: ${uid}`);
  const wantRv = opts.preconditions?.resourceVersion;
  if (wantRv && wantRv !== resourceVersion)
    throw fail(`ResourceVersion in precondition: ${wantRv}, ResourceVersion in object meta: ${resourceVersion}`);
  const write = { preconditions: { uid, resourceVersion: wantRv }, dryRun: opts.dryRun, operation: 'DELETE' as const };
  if (!current.metadata.deletionTimestamp) {
    const marked = await store.mutate(
      '',
      name,
      (c) => {
        const next = structuredClone(c);
        next.metadata.deletionTimestamp ??= rfc3339(new Date());
        if (!(next.metadata.finalizers ?? []).includes(CUSTOM_RESOURCE_CLEANUP_FINALIZER))
          next.metadata.finalizers = [...(next.metadata.finalizers ?? []), CUSTOM_RESOURCE_CLEANUP_FINALIZER];
        setCrdCondition(next, {
          type: 'Terminating',
          status: 'True',
          reason: 'InstanceDeletionPending',
          message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
        });
        return next;
      },
      write,
    );
    return { body: marked, code: 200 };
  }
  if ((current.metadata.finalizers ?? []).length) return { body: current, code: 200 };
  return finalizeDelete(store, '', name, write);
}

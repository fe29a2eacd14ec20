/**
 * Emptying a CustomResourceDefinition being deleted (upstream apiextensions-apiserver
 * pkg/controller/finalizer/crd_finalizer.go deleteInstances): every instance is deleted, a
 * namespace at a time as a deletecollection does (instances with finalizers are only marked,
 * and go once their finalizers are removed), then the instances are listed until none is left,
 * for at most a minute. Answers the Terminating condition to set: `InstanceDeletionCompleted`
 * (False) when none is left, else True with why (`InstanceDeletionFailed`,
 * `InstanceDeletionCheck`).
 */
import { errorMessage } from '../api/error-message.js';
import { deleteCollection } from '../registry/deletion.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { CrdCondition } from '../resources/customresourcedefinitions/conditions.js';
import type { CustomResourceDefinition } from '../resources/customresourcedefinitions/customresourcedefinitions.schema.js';

/** How long instances may take to go (upstream's poll: 1 minute). */
const WAIT_MS = 60_000;

type Condition = Omit<CrdCondition, 'lastTransitionTime'>;

const terminating = (status: string, reason: string, message: string): Condition => ({
  type: 'Terminating',
  status,
  reason,
  message,
});

/** Delete every instance of `crd` and wait until none is left (or `signal` aborts). */
export async function emptyCustomResource(
  registry: ResourceRegistry,
  crd: CustomResourceDefinition,
  signal: AbortSignal,
): Promise<Condition> {
  const plural = crd.status?.acceptedNames?.plural || crd.spec.names.plural || '';
  const store = crd.spec.versions
    .map((v) => registry.lookup(crd.spec.group, v.name, plural))
    .find((s) => s !== undefined);
  if (!store) {
    const why = `unable to find a custom resource client for ${plural}.${crd.spec.group}: not served`;
    return terminating('True', 'InstanceDeletionFailed', `could not list instances: ${why}`);
  }
  const all = buildPredicate(store.def);
  let items;
  try {
    items = (await store.list('', { predicate: all })).items;
  } catch (err) {
    return terminating('True', 'InstanceDeletionFailed', `could not list instances: ${errorMessage(err)}`);
  }
  const errors: string[] = [];
  for (const namespace of new Set(items.map((i) => i.metadata.namespace ?? ''))) {
    try {
      await deleteCollection(store, namespace, { predicate: all }, {});
    } catch (err) {
      errors.push(errorMessage(err));
    }
  }
  if (errors.length)
    return terminating(
      'True',
      'InstanceDeletionFailed',
      `could not issue all deletes: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
    );
  const deadline = Date.now() + WAIT_MS;
  for (let wait = 20; !signal.aborted; wait = Math.min(wait * 2, 1000)) {
    try {
      if ((await store.list('', { predicate: all })).items.length === 0)
        return terminating('False', 'InstanceDeletionCompleted', 'removed all instances');
    } catch (err) {
      return terminating(
        'True',
        'InstanceDeletionCheck',
        `could not confirm zero CustomResources remaining: ${errorMessage(err)}`,
      );
    }
    if (Date.now() >= deadline) break;
    await new Promise((r) => setTimeout(r, wait));
  }
  return terminating(
    'True',
    'InstanceDeletionCheck',
    'could not confirm zero CustomResources remaining: timed out waiting for the condition',
  );
}

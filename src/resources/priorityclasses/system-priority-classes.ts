/**
 * The system priority classes (upstream's scheduling/bootstrap-system-priority-classes
 * post-start hook, pkg/registry/scheduling/rest/storage_scheduling.go): at every start, on
 * every replica, `system-node-critical` (2000001000) and `system-cluster-critical`
 * (2000000000) are created when missing, so one deleted comes back at the next start, as the
 * bootstrap RBAC policy does. An existing one is left as it is; a create lost to another
 * replica (409) is no error.
 */
import { ApiError } from '../../errors/api-error.js';
import { SERVER_WRITER } from '../../registry/hooks.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { priorityClasses } from './priorityclasses.resource.js';
import { SYSTEM_PRIORITY_CLASSES } from './priorityclasses.validation.js';

/** Create the missing system priority classes. Throws only storage failures. */
export async function ensureSystemPriorityClasses(registry: ResourceRegistry): Promise<void> {
  const store = registry.find(priorityClasses);
  if (!store) return;
  for (const { name, value, description } of SYSTEM_PRIORITY_CLASSES) {
    try {
      await store.get('', name);
      continue;
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    const body = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description };
    await store.create('', body, { user: SERVER_WRITER }).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    });
  }
}

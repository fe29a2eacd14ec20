/**
 * Objects that exist from the start: the `default`, `kube-system`, `kube-public` and
 * `kube-node-lease` namespaces (upstream's bootstrap controller; the RBAC bootstrap policy puts
 * Roles in kube-system and kube-public), and the system priority classes (upstream's
 * scheduling post-start hook). Creating one that exists is not an error, so every replica may
 * run this at start.
 */
import { ApiError } from '../errors/api-error.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { namespaces } from '../resources/namespaces/namespaces.resource.js';
import { ensureSystemPriorityClasses } from '../resources/priorityclasses/system-priority-classes.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

/** Ensure the system namespaces (and the system priority classes) exist. Throws only for storage failures. */
export async function ensureSystemNamespaces(registry: ResourceRegistry): Promise<void> {
  const store = registry.of(namespaces);
  for (const name of SYSTEM_NAMESPACES) {
    try {
      await store.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
  await ensureSystemPriorityClasses(registry);
}

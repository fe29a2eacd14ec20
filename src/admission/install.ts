/**
 * The admission chain, installed on the stores of the registry in upstream's order:
 * NamespaceLifecycle on every namespaced kind, then service IP and node port allocation.
 */
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';

export function installAdmission(registry: ResourceRegistry): void {
  for (const store of registry.all()) {
    if (store.def.namespaced) store.hooks.push(namespaceLifecycle(registry, store));
  }
}

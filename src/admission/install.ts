/**
 * The admission chain, installed on the stores of the registry in upstream's order:
 * NamespaceLifecycle on every namespaced kind, then service IP and node port allocation.
 */
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { ObjectStorage } from '../storage/types.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { serviceAllocation } from './service-allocation/service-allocation.js';

export interface AdmissionSettings {
  readonly serviceClusterIpRange: string;
  readonly serviceNodePortRange: string;
}

export function installAdmission(registry: ResourceRegistry, storage: ObjectStorage, settings: AdmissionSettings): void {
  for (const store of registry.all()) {
    if (store.def.namespaced) store.hooks.push(namespaceLifecycle(registry, store));
  }
  registry.core('services').hooks.push(serviceAllocation(registry, storage, settings.serviceClusterIpRange, settings.serviceNodePortRange));
}

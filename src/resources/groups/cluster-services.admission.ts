/**
 * Admission steps of the cluster-service kinds, installed on their stores by
 * admission/install.ts (one call): the PriorityClass part of upstream's Priority plugin (one
 * global default).
 */
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { priorityClassAdmission } from '../priorityclasses/priorityclasses.admission.js';
import { priorityClasses } from '../priorityclasses/priorityclasses.resource.js';

/** Install the steps on every store of the registry that serves these kinds. */
export function installClusterServiceAdmission(registry: ResourceRegistry): void {
  const pcs = registry.find(priorityClasses);
  if (pcs) pcs.addAdmission(priorityClassAdmission(pcs));
}

/**
 * PodDisruptionBudget (upstream pkg/registry/policy/poddisruptionbudget): one storage
 * (policy/v1, upstream's storage version) served as policy/v1 and as 1.10's policy/v1beta1
 * through upstream's selector conversion (poddisruptionbudgets.conversion.ts). Short name
 * `pdb`. Create clears the status, generation counts spec changes, the main resource keeps the
 * stored status and `/status` writes only the status, checked by
 * ValidatePodDisruptionBudgetStatusUpdate for the version written through (policy/v1beta1
 * skips the count checks, as upstream). No disruption controller runs: the status is what
 * clients write through `/status`, and pods/eviction (resources/evictions) reads and
 * decrements it.
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import { invalid } from '../../errors/api-error.js';
import type { ResourceDefinition, SubresourceDefinition } from '../../registry/types.js';
import { defineResource, keepStatusOnUpdate, mergeMetaForSubresource, specGeneration } from '../define.js';
import { keepV1Fields, v1beta1PdbConversion, v1Selector } from './poddisruptionbudgets.conversion.js';
import { podDisruptionBudgetMessages, podDisruptionBudgetV1beta1Messages } from './poddisruptionbudgets.protobuf.js';
import {
  podDisruptionBudgetSchema,
  podDisruptionBudgetV1beta1Schema,
  type PodDisruptionBudget,
} from './poddisruptionbudgets.schema.js';
import { podDisruptionBudgetPrinter } from './poddisruptionbudgets.table.js';
import {
  validatePodDisruptionBudget,
  validatePodDisruptionBudgetStatus,
  validatePodDisruptionBudgetUpdate,
} from './poddisruptionbudgets.validation.js';

const generation = specGeneration();

/** `/status` of one version: its status rules, then only the status is written. */
function statusOf(v1beta1: boolean): SubresourceDefinition<PodDisruptionBudget> {
  return {
    name: 'status',
    kind: 'PodDisruptionBudget',
    verbs: ['get', 'patch', 'update'],
    merge(req: PodDisruptionBudget, old) {
      // 1.10's v1beta1 cannot show the conditions: a write through it keeps the stored ones.
      const status =
        v1beta1 && old.status?.conditions ? { ...req.status, conditions: old.status.conditions } : req.status;
      const errs = validatePodDisruptionBudgetStatus(status, v1beta1);
      if (errs.length) throw invalid('PodDisruptionBudget', old.metadata.name ?? '', errs, 'policy');
      return { ...old, metadata: mergeMetaForSubresource(req, old), status };
    },
  };
}

const strategy = {
  ...generation,
  /** The selector as upstream's v1 conversion reads it (the v1beta1 label stripped unless alone). */
  defaults(obj: PodDisruptionBudget) {
    if (obj.spec?.selector) obj.spec.selector = v1Selector(obj.spec.selector);
  },
  prepareForCreate(obj: PodDisruptionBudget) {
    // Upstream PrepareForCreate: create cannot set status (the counts are written without omitempty).
    obj.status = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
    generation.prepareForCreate!(obj);
  },
  prepareForUpdate(obj: PodDisruptionBudget, old: PodDisruptionBudget) {
    keepStatusOnUpdate.prepareForUpdate!(obj, old);
    generation.prepareForUpdate!(obj, old);
  },
  validate: validatePodDisruptionBudget,
  validateUpdate: validatePodDisruptionBudgetUpdate,
};

/** policy/v1: the storage version. */
export const podDisruptionBudgets = defineResource({
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  description:
    'PodDisruptionBudget limits how many pods of a set may be disrupted at once by voluntary evictions (pods/eviction).',
  plural: 'poddisruptionbudgets',
  namespaced: true,
  shortNames: ['pdb'],
  schema: podDisruptionBudgetSchema,
  printer: podDisruptionBudgetPrinter,
  protobuf: podDisruptionBudgetMessages,
  subresources: [statusOf(false)],
  strategy,
});

/** policy/v1beta1 of 1.10 over the v1 storage; an update keeps the v1 fields it cannot show. */
export const podDisruptionBudgetsV1beta1: ResourceDefinition<PodDisruptionBudget> = {
  ...podDisruptionBudgets,
  version: 'v1beta1',
  schema: podDisruptionBudgetV1beta1Schema,
  patchMeta: patchMetaOf(podDisruptionBudgetV1beta1Schema),
  protobuf: podDisruptionBudgetV1beta1Messages,
  conversion: v1beta1PdbConversion,
  subresources: [statusOf(true)],
  strategy: {
    ...strategy,
    prepareForUpdate(obj: PodDisruptionBudget, old: PodDisruptionBudget) {
      keepV1Fields(obj, old);
      strategy.prepareForUpdate(obj, old);
    },
  },
};

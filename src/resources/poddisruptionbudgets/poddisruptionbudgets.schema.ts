/**
 * PodDisruptionBudget fields: today's policy/v1 (k8s.io/api policy/v1 types.go) and 1.10's
 * policy/v1beta1 (no unhealthyPodEvictionPolicy, no status conditions).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  int,
  intOrString,
  mergedList,
  obj,
  replacedByPatch,
  reqObj,
  reqStr,
  str,
  time,
  timeString,
} from '../../api/core/schema-kit.js';
import { z } from 'zod';
import { labelSelectorSchema } from '../apps-common/label-selector.js';

const specShape = {
  maxUnavailable: intOrString.describe(
    'An eviction is allowed if at most this many (or this percentage of) the selected pods are unavailable after it; 0 prevents every voluntary eviction. Excludes minAvailable.',
  ),
  minAvailable: intOrString.describe(
    'An eviction is allowed if at least this many (or this percentage of) the selected pods are still available after it; "100%" prevents every voluntary eviction.',
  ),
};

const statusShape = {
  currentHealthy: int.describe('Current number of healthy pods.'),
  desiredHealthy: int.describe('Minimum desired number of healthy pods.'),
  disruptedPods: z
    .record(z.string(), timeString)
    .nullable()
    .optional()
    .describe(
      'Pods whose eviction the API server processed but the disruption controller has not yet seen deleted: pod name -> time of the eviction.',
    ),
  disruptionsAllowed: int.describe('Number of pod disruptions currently allowed.'),
  expectedPods: int.describe('Total number of pods counted by this disruption budget.'),
  observedGeneration: int.describe(
    'Most recent generation observed when this status was written; disruptionsAllowed and the rest are valid only when it equals metadata.generation.',
  ),
};

/** metav1.Condition. */
export const conditionSchema = reqObj({
  lastTransitionTime: time.describe('When the condition last changed status.'),
  message: str.describe('Human-readable details of the transition.'),
  observedGeneration: int.describe('The metadata.generation the condition was set for.'),
  reason: str.describe('CamelCase reason of the last transition.'),
  status: reqStr.describe('True, False or Unknown.'),
  type: reqStr.describe('Type of the condition, in CamelCase or foo.example.com/CamelCase.'),
});

/** policy/v1 PodDisruptionBudget (the storage version). */
export const podDisruptionBudgetSchema = kindSchema({
  spec: obj({
    ...specShape,
    selector: replacedByPatch(labelSelectorSchema).describe(
      'Pods whose evictions the budget manages. A null selector matches no pods; an empty one ({}) every pod of the namespace.',
    ),
    unhealthyPodEvictionPolicy: str.describe(
      'When running pods that are not yet healthy (Ready) may be evicted: IfHealthyBudget (the default: only if the application is not disrupted) or AlwaysAllow.',
    ),
  }).describe('Desired behaviour of the PodDisruptionBudget.'),
  status: obj({
    ...statusShape,
    conditions: mergedList(conditionSchema, { key: 'type' }).describe(
      'Conditions of the budget; the disruption controller sets DisruptionAllowed (reasons SyncFailed, InsufficientPods, SufficientPods).',
    ),
  }).describe('Most recently observed status of the PodDisruptionBudget.'),
});

/** policy/v1beta1 PodDisruptionBudget of 1.10. */
export const podDisruptionBudgetV1beta1Schema = kindSchema({
  spec: obj({
    ...specShape,
    selector: replacedByPatch(labelSelectorSchema).describe(
      'Pods whose evictions the budget manages. In policy/v1beta1 an empty selector ({}) matches no pods.',
    ),
  }).describe('Desired behaviour of the PodDisruptionBudget.'),
  status: obj(statusShape).describe('Most recently observed status of the PodDisruptionBudget.'),
});

/** A PodDisruptionBudget as stored (policy/v1). */
export type PodDisruptionBudget = KindObject<typeof podDisruptionBudgetSchema>;

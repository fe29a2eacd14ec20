/** PriorityClass fields (k8s.io/api scheduling/v1 types.go). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, int, str } from '../../api/core/schema-kit.js';

export const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'] as const;

export const priorityClassSchema = kindSchema({
  description: str.describe('When this priority class should be used; an arbitrary string.'),
  globalDefault: bool.describe(
    'Whether this class is the priority of pods that name no priorityClassName. Only one PriorityClass may be the global default.',
  ),
  preemptionPolicy: str.describe(
    'Policy for preempting pods with lower priority: Never or PreemptLowerPriority (the default). Immutable.',
  ),
  value: int.describe(
    'The priority of pods of this class. User-defined classes may have at most 1000000000; larger values are reserved for system classes. Immutable.',
  ),
});

/** A PriorityClass as its schema describes it. */
export type PriorityClass = KindObject<typeof priorityClassSchema>;

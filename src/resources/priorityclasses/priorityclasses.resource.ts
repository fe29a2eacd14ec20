/**
 * PriorityClass (scheduling.k8s.io/v1; upstream pkg/registry/scheduling/priorityclass):
 * cluster-scoped, short name `pc`. Defaults: preemptionPolicy PreemptLowerPriority
 * (SetDefaults_PriorityClass), value 0 (a Go int32 always written). Generation 1 on create and
 * kept after (the strategy sets it once). Names starting with `system-` are reserved for the
 * two system classes (system-priority-classes.ts creates them at start).
 */
import { defineResource } from '../define.js';
import { priorityClassMessages } from './priorityclasses.protobuf.js';
import { priorityClassSchema } from './priorityclasses.schema.js';
import { priorityClassPrinter } from './priorityclasses.table.js';
import { validatePriorityClass, validatePriorityClassUpdate } from './priorityclasses.validation.js';

export const priorityClasses = defineResource({
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  description:
    'PriorityClass maps a priority class name to the integer priority of pods that name it in priorityClassName.',
  plural: 'priorityclasses',
  namespaced: false,
  shortNames: ['pc'],
  schema: priorityClassSchema,
  printer: priorityClassPrinter,
  protobuf: priorityClassMessages,
  strategy: {
    defaults(obj) {
      obj.value ??= 0;
      obj.preemptionPolicy ??= 'PreemptLowerPriority';
    },
    prepareForCreate(obj) {
      obj.metadata.generation = 1;
    },
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
  },
});

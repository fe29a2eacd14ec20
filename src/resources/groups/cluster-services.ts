/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { leases } from '../leases/leases.resource.js';
import { priorityClasses } from '../priorityclasses/priorityclasses.resource.js';
import { runtimeClasses } from '../runtimeclasses/runtimeclasses.resource.js';
import { eventsCkV1beta1, eventsV1, eventsV1beta1 } from '../events-k8s/events-k8s.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  // coordination.k8s.io/v1
  leases,
  // scheduling.k8s.io/v1
  priorityClasses,
  // node.k8s.io/v1
  runtimeClasses,
  // events.k8s.io v1 and v1beta1, events.ck.io/v1beta1: views of the core/v1 events storage
  eventsV1,
  eventsV1beta1,
  eventsCkV1beta1,
];

/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/. Here: StatefulSets, DaemonSets and ControllerRevisions, each
 * stored as apps/v1 and served at the older versions through a VersionConversion.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import {
  controllerRevisions,
  controllerRevisionsV1beta1,
  controllerRevisionsV1beta2,
} from '../controllerrevisions/controllerrevisions.resource.js';
import { daemonSets, daemonSetsExtensions, daemonSetsV1beta2 } from '../daemonsets/daemonsets.resource.js';
import { statefulSets, statefulSetsV1beta1, statefulSetsV1beta2 } from '../statefulsets/statefulsets.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  // apps/v1 (the storage version of all three)
  controllerRevisions,
  daemonSets,
  statefulSets,
  // apps/v1beta2
  controllerRevisionsV1beta2,
  daemonSetsV1beta2,
  statefulSetsV1beta2,
  // apps/v1beta1
  controllerRevisionsV1beta1,
  statefulSetsV1beta1,
  // extensions/v1beta1
  daemonSetsExtensions,
];

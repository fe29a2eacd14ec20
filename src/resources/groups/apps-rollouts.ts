/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/. Deployments and ReplicaSets: the apps/v1 storage rows first,
 * then the versions served over them; and extensions' scale of ReplicationControllers.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import {
  deployments,
  deploymentsExtensions,
  deploymentsV1beta1,
  deploymentsV1beta2,
} from '../deployments/deployments.resource.js';
import { replicationControllersExtensions } from '../replicationcontrollers/replicationcontrollers-extensions.js';
import { replicaSets, replicaSetsExtensions, replicaSetsV1beta2 } from '../replicasets/replicasets.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  deployments,
  deploymentsV1beta2,
  deploymentsV1beta1,
  deploymentsExtensions,
  replicaSets,
  replicaSetsV1beta2,
  replicaSetsExtensions,
  replicationControllersExtensions,
];

/**
 * The `scale` subresource of replication controllers (upstream
 * pkg/registry/core/replicationcontroller/storage ScaleREST): the autoscaling/v1 Scale of the
 * apps workloads, whose `status.selector` is the controller's map selector in label-selector
 * syntax (labels.SelectorFromSet). Served in core/v1, and in extensions/v1beta1 as that group's
 * Scale (upstream 1.10's pkg/registry/extensions/controller/storage, kept for old clients).
 */
import type { SubresourceDefinition } from '../../registry/types.js';
import { scaleOf, type ScaleVersion } from '../apps-common/scale.js';
import type { SelectorObject } from '../apps-common/label-selector.js';
import type { ReplicationController } from './replicationcontrollers.schema.js';

/** The controller's selector as a LabelSelector: its map is `matchLabels`. */
const selectorOf = (rc: ReplicationController): SelectorObject => ({ matchLabels: rc.spec?.selector ?? {} });

/** The scale subresource of a controller served where Scale is `version`. */
export const controllerScale = (version: ScaleVersion): SubresourceDefinition<ReplicationController> =>
  scaleOf<ReplicationController>(version, selectorOf);

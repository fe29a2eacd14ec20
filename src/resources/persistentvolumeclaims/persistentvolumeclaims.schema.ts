/**
 * PersistentVolumeClaim fields (k8s.io/api core/v1 at 1.33): the spec is shared with claim
 * templates (api/core/pvc-spec.ts); the status has the expansion-recovery fields.
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { mergedList, obj, oneOf, quantityMap, reqObj, reqStr, str, strMap, time } from '../../api/core/schema-kit.js';
import { accessModes, persistentVolumeClaimSpec } from '../../api/core/pvc-spec.js';

export const persistentVolumeClaimSchema = kindSchema({
  spec: persistentVolumeClaimSpec,
  status: obj({
    accessModes: accessModes.describe('Access modes the bound volume offers.'),
    allocatedResourceStatuses: strMap.describe(
      'State of each resource being resized: ControllerResizeInProgress, ControllerResizeInfeasible, NodeResizePending, NodeResizeInProgress or NodeResizeInfeasible.',
    ),
    allocatedResources: quantityMap.describe(
      'Resources allocated to the claim, capacity included, while it is resized.',
    ),
    capacity: quantityMap,
    conditions: mergedList(
      reqObj({
        lastProbeTime: time,
        lastTransitionTime: time,
        message: str,
        reason: str,
        status: reqStr,
        type: reqStr,
      }),
      { key: 'type' },
    ),
    currentVolumeAttributesClassName: str.describe(
      'VolumeAttributesClass in use (VolumeAttributesClass: off in 1.33, dropped).',
    ),
    modifyVolumeStatus: obj({
      status: reqStr.describe('Status of the modification: Pending, InProgress or Infeasible.'),
      targetVolumeAttributesClassName: str.describe('VolumeAttributesClass being applied.'),
    }).describe('State of a volume modification (VolumeAttributesClass: off in 1.33, dropped).'),
    phase: oneOf(['Pending', 'Bound', 'Lost']).describe('Pending, Bound, or Lost (its volume is gone).'),
  }),
});

/** A PersistentVolumeClaim as its schema describes it (for its strategy, printer and LimitRanger admission). */
export type PersistentVolumeClaim = KindObject<typeof persistentVolumeClaimSchema>;

/** PersistentVolumeClaim fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import {
  labelSelector,
  list,
  mergedList,
  obj,
  oneOf,
  quantityMap,
  reqObj,
  reqStr,
  str,
  strList,
  time,
} from '../../api/core/schema-kit.js';

const accessModes = list(oneOf(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']).unwrap().unwrap());

export const persistentVolumeClaimSchema = kindSchema({
  spec: obj({
    accessModes: accessModes.describe(
      'Access modes the volume must offer: ReadWriteOnce, ReadOnlyMany, ReadWriteMany.',
    ),
    resources: obj({ limits: quantityMap, requests: quantityMap }).describe(
      'Minimum resources the volume must have (requests.storage).',
    ),
    selector: labelSelector.describe('Label query over the volumes that may be bound.'),
    storageClassName: str.describe('Storage class wanted; the empty string asks for a volume without class.'),
    volumeMode: oneOf(['Block', 'Filesystem']).describe('Filesystem (the default) or Block.'),
    volumeName: str.describe('Name of the PersistentVolume this claim is bound to.'),
  }),
  status: obj({
    accessModes: strList,
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
    phase: oneOf(['Pending', 'Bound', 'Lost']).describe('Pending, Bound, or Lost (its volume is gone).'),
  }),
});

/** A PersistentVolumeClaim as its schema describes it (for its strategy, printer and LimitRanger admission). */
export type PersistentVolumeClaim = KindObject<typeof persistentVolumeClaimSchema>;

/** PersistentVolumeClaim fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { labelSelector, list, obj, oneOf, quantityMap, reqObj, reqStr, str, strList, time } from '../../api/core/schema-kit.js';

const accessModes = list(oneOf(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']).unwrap().unwrap());

export const persistentVolumeClaimSchema = kindSchema({
  spec: obj({
    accessModes,
    resources: obj({ limits: quantityMap, requests: quantityMap }),
    selector: labelSelector,
    storageClassName: str,
    volumeMode: oneOf(['Block', 'Filesystem']),
    volumeName: str,
  }),
  status: obj({
    accessModes: strList,
    capacity: quantityMap,
    conditions: list(reqObj({ lastProbeTime: time, lastTransitionTime: time, message: str, reason: str, status: reqStr, type: reqStr })),
    phase: oneOf(['Pending', 'Bound', 'Lost']),
  }),
});

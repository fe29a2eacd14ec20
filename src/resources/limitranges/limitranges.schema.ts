/** LimitRange fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { list, obj, quantityMap, reqObj, reqStr } from '../../api/core/schema-kit.js';

export const limitRangeSchema = kindSchema({
  spec: obj({
    limits: list(
      reqObj({
        default: quantityMap,
        defaultRequest: quantityMap,
        max: quantityMap,
        maxLimitRequestRatio: quantityMap,
        min: quantityMap,
        type: reqStr,
      }).describe(
        'Limits per kind of object (type Pod, Container or PersistentVolumeClaim): min, max, defaults and the largest allowed limit/request ratio.',
      ),
    ),
  }),
});

/** A LimitRange as its schema describes it (for its strategy and LimitRanger admission). */
export type LimitRange = KindObject<typeof limitRangeSchema>;

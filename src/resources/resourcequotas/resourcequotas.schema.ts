/** ResourceQuota fields (spec.scopeSelector added in 1.11). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, list, obj, quantityMap, reqObj, reqStr, strList } from '../../api/core/schema-kit.js';

export const resourceQuotaSchema = kindSchema({
  spec: obj({
    hard: quantityMap,
    scopeSelector: atomic(
      obj({
        matchExpressions: list(
          reqObj({
            operator: reqStr.describe('In, NotIn, Exists or DoesNotExist.'),
            scopeName: reqStr.describe(
              'Scope the requirement is about: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass, CrossNamespacePodAffinity, VolumeAttributesClass.',
            ),
            values: strList.describe('Values for In and NotIn (non-empty); none for Exists and DoesNotExist.'),
          }),
        ).describe('Requirements on the scopes of the objects counted, all of which must hold.'),
      }),
    ).describe('Scopes objects must match to be counted, as selector requirements (PriorityClass scopes take values).'),
    scopes: strList,
  }).describe('Desired quota: hard limits per resource name, and the scopes objects must match to be counted.'),
  status: obj({ hard: quantityMap, used: quantityMap }).describe(
    'Enforced hard limits and current usage of the namespace.',
  ),
});

/** A ResourceQuota as its schema describes it (for its strategy, printer and quota admission). */
export type ResourceQuota = KindObject<typeof resourceQuotaSchema>;

/** ResourceQuota fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { obj, quantityMap, strList } from '../../api/core/schema-kit.js';

export const resourceQuotaSchema = kindSchema({
  spec: obj({ hard: quantityMap, scopes: strList }).describe(
    'Desired quota: hard limits per resource name, and the scopes objects must match to be counted.',
  ),
  status: obj({ hard: quantityMap, used: quantityMap }).describe(
    'Enforced hard limits and current usage of the namespace.',
  ),
});

/** A ResourceQuota as its schema describes it (for its strategy, printer and quota admission). */
export type ResourceQuota = KindObject<typeof resourceQuotaSchema>;

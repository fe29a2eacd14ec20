/** ResourceQuota fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { obj, quantityMap, strList } from '../../api/core/schema-kit.js';

export const resourceQuotaSchema = kindSchema({
  spec: obj({ hard: quantityMap, scopes: strList }),
  status: obj({ hard: quantityMap, used: quantityMap }),
});

/** ConfigMap fields: data, binaryData and immutable (1.21). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, bytesMap, strMap } from '../../api/core/schema-kit.js';

export const configMapSchema = kindSchema({
  data: strMap.describe(
    "Configuration data as UTF-8 strings. Keys are letters, digits, '-', '_' or '.'; a key may not also be in binaryData.",
  ),
  immutable: bool.describe(
    'When true, data and binaryData (and immutable itself) can no longer change: the ConfigMap can only be deleted and recreated.',
  ),
  binaryData: bytesMap.describe('Configuration data as base64-encoded bytes, for values that are not UTF-8.'),
});

/** A ConfigMap as its schema describes it (for its strategy and printer). */
export type ConfigMap = KindObject<typeof configMapSchema>;

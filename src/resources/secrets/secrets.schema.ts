/** Secret fields: data (base64, checked by the strategy), stringData, type, immutable (1.21). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { bool, str, strMap } from '../../api/core/schema-kit.js';

export const secretSchema = kindSchema({
  immutable: bool.describe(
    'When true, data (and immutable itself) can no longer change: the Secret can only be deleted and recreated.',
  ),
  data: strMap.describe("Secret data, each value base64-encoded. Keys are letters, digits, '-', '_' or '.'."),
  stringData: strMap.describe(
    'Write-only convenience: plain-text values merged into data (encoded) on write; never returned.',
  ),
  type: str.describe(
    'Kind of secret, for programmatic handling: Opaque (the default), kubernetes.io/service-account-token, kubernetes.io/dockerconfigjson, kubernetes.io/tls, ...',
  ),
});

/** A Secret as its schema describes it (for its strategy and printer). */
export type Secret = KindObject<typeof secretSchema>;

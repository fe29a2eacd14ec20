/** ConfigMap fields: data (and 1.10's binaryData). */
import { kindSchema } from '../../api/meta-schema.js';
import { bytesMap, strMap } from '../../api/core/schema-kit.js';

export const configMapSchema = kindSchema({ data: strMap, binaryData: bytesMap });

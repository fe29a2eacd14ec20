/** Secret fields: data (base64, checked by the strategy), stringData, type. */
import { kindSchema } from '../../api/meta-schema.js';
import { str, strMap } from '../../api/core/schema-kit.js';

export const secretSchema = kindSchema({ data: strMap, stringData: strMap, type: str });

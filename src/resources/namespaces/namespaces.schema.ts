/** Namespace fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { obj, oneOf, strList } from '../../api/core/schema-kit.js';

export const namespaceSchema = kindSchema({ spec: obj({ finalizers: strList }), status: obj({ phase: oneOf(['Active', 'Terminating']) }) });

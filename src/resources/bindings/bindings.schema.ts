/** Binding fields. */
import { kindSchema } from '../../api/meta-schema.js';
import { objectReference, reqObj } from '../../api/core/schema-kit.js';

export const bindingSchema = kindSchema({ target: reqObj(objectReference).describe('The object to bind to, for a pod the Node it is to run on.') });

/** Binding fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, objectReference, reqObj } from '../../api/core/schema-kit.js';

export const bindingSchema = kindSchema({
  target: atomic(reqObj(objectReference)).describe('The object to bind to, for a pod the Node it is to run on.'),
});

/** A Binding as its schema describes it (for the binding create). */
export type Binding = KindObject<typeof bindingSchema>;

/** Binding (core/v1): create only; binds a pod to a node (deprecated in favour of pods/binding). */
import { bindingSchema } from './bindings.schema.js';
import { defineResource } from '../define.js';
import { bindingMessages } from './bindings.protobuf.js';

export const bindings = defineResource({
  kind: 'Binding',
  protobuf: bindingMessages,
  plural: 'bindings',
  namespaced: true,
  schema: bindingSchema,
  verbs: ['create'],
  createHandler: 'binding',
});

/** Binding (core/v1): create only; binds a pod to a node (deprecated in favour of pods/binding). */
import { bindingSchema } from './bindings.schema.js';
import { defineResource } from '../define.js';
import { bindingMessages } from './bindings.protobuf.js';
import { bindingCreate } from './bind-pod.js';
import { pods } from '../pods/pods.resource.js';

export const bindings = defineResource({
  kind: 'Binding',
  description:
    'Binding ties one object to another; for example, a pod to the node it runs on. Deprecated: use the pods/binding subresource.',
  protobuf: bindingMessages,
  plural: 'bindings',
  namespaced: true,
  schema: bindingSchema,
  verbs: ['create'],
  create: (req) => bindingCreate(req, req.store(pods)),
});

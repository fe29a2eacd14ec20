/**
 * RuntimeClass (node.k8s.io/v1; upstream pkg/registry/node/runtimeclass): cluster-scoped, no
 * short names; the handler is immutable; updates run the create rules too. (Upstream's
 * strategy keeps no generation for it.)
 */
import { defineResource } from '../define.js';
import { runtimeClassMessages } from './runtimeclasses.protobuf.js';
import { runtimeClassSchema } from './runtimeclasses.schema.js';
import { runtimeClassPrinter } from './runtimeclasses.table.js';
import { validateRuntimeClass, validateRuntimeClassUpdate } from './runtimeclasses.validation.js';

export const runtimeClasses = defineResource({
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  description:
    'RuntimeClass names a container runtime configuration (a CRI handler) that pods select with runtimeClassName, with its overhead and scheduling constraints.',
  plural: 'runtimeclasses',
  namespaced: false,
  schema: runtimeClassSchema,
  printer: runtimeClassPrinter,
  protobuf: runtimeClassMessages,
  strategy: {
    validate: validateRuntimeClass,
    validateUpdate: (obj, old) => [...validateRuntimeClass(obj), ...validateRuntimeClassUpdate(obj, old)],
  },
});

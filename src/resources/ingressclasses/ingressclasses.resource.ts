/**
 * IngressClass (networking.k8s.io/v1; upstream pkg/registry/networking/ingressclass):
 * cluster-scoped, the controller immutable, parameters' scope defaulted to Cluster (upstream
 * SetDefaults_IngressClass), generation counting spec changes. No short names.
 *
 * Not served: upstream's DefaultIngressClass admission plugin, which gives a new Ingress
 * without a class the IngressClass annotated `ingressclass.kubernetes.io/is-default-class:
 * "true"` (admission is another layer).
 */
import { defineResource, specGeneration } from '../define.js';
import { ingressClassMessages } from './ingressclasses.protobuf.js';
import { ingressClassSchema } from './ingressclasses.schema.js';
import { ingressClassPrinter } from './ingressclasses.table.js';
import { validateIngressClass, validateIngressClassUpdate } from './ingressclasses.validation.js';

export const ingressClasses = defineResource({
  group: 'networking.k8s.io',
  kind: 'IngressClass',
  description:
    'IngressClass represents the class of an Ingress, referenced by its spec.ingressClassName: the controller that serves it and its parameters.',
  plural: 'ingressclasses',
  namespaced: false,
  schema: ingressClassSchema,
  printer: ingressClassPrinter,
  protobuf: ingressClassMessages,
  strategy: {
    ...specGeneration(),
    defaults(obj) {
      const params = obj.spec?.parameters;
      if (params && (params.scope === undefined || params.scope === null)) params.scope = 'Cluster';
    },
    validate: validateIngressClass,
    validateUpdate: validateIngressClassUpdate,
  },
});

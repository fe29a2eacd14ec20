/** Service (core/v1), stored under upstream's special prefix `services/specs`. */
import { servicePrinter } from './services.table.js';
import { serviceSchema, type Service } from './services.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { validateDns1035Label } from '../../api/names.js';
import { serviceMessages } from './services.protobuf.js';
import { serviceProxySubresource } from './service-connect.js';
import { prepareServiceUpdate, validateServiceCreate, validateServiceUpdate } from './services.validation.js';

/** Upstream SetDefaults_Service and SetDefaults_ServicePort (1.10). */
function defaultServiceSpec(spec: NonNullable<Service['spec']>): void {
  spec.type ||= 'ClusterIP';
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'ClientIP') {
    spec.sessionAffinityConfig ??= {};
    spec.sessionAffinityConfig.clientIP ??= {};
    spec.sessionAffinityConfig.clientIP.timeoutSeconds ??= 10800;
  }
  for (const port of Array.isArray(spec.ports) ? spec.ports : []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '')
      port.targetPort = port.port;
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !spec.externalTrafficPolicy)
    spec.externalTrafficPolicy = 'Cluster';
}

export const services = defineResource({
  kind: 'Service',
  description: 'Service names a set of pods (by label selector) and the ports through which clients reach them.',
  protobuf: serviceMessages,
  plural: 'services',
  validateName: validateDns1035Label,
  namespaced: true,
  schema: serviceSchema,
  printer: servicePrinter,
  shortNames: ['svc'],
  categories: ['all'],
  storagePrefix: 'services/specs',
  subresources: [serviceProxySubresource, statusSubresource('Service')],
  strategy: {
    ...keepStatusOnUpdate,
    defaults(obj) {
      defaultServiceSpec((obj.spec ??= {}));
    },
    prepareForCreate(obj) {
      obj.status = { loadBalancer: {} };
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      prepareServiceUpdate(obj, old);
    },
    validate: validateServiceCreate,
    validateUpdate: validateServiceUpdate,
  },
});

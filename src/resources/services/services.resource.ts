/** Service (core/v1), stored under upstream's special prefix `services/specs`. */
import { servicePrinter } from './services.table.js';
import { serviceSchema, type Service } from './services.schema.js';
import { defineResource, keepStatusOnUpdate, statusSubresource } from '../define.js';
import { validateDns1035Label } from '../../api/names.js';
import { serviceMessages } from './services.protobuf.js';
import { serviceProxySubresource } from './service-connect.js';
import { validateServiceCreate, validateServiceUpdate } from './services.validation.js';
import { dropTypeDependentFields, externallyAccessible } from './service-ip-fields.js';

/** Upstream SetDefaults_Service and SetDefaults_ServicePort (1.33). */
function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && !isSet(spec.sessionAffinityConfig?.clientIP?.timeoutSeconds))
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  spec.type ||= 'ClusterIP';
  for (const port of Array.isArray(spec.ports) ? spec.ports : []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '')
      port.targetPort = port.port;
  }
  if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (!isSet(spec.internalTrafficPolicy) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type))
    spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer') {
    spec.allocateLoadBalancerNodePorts ??= true;
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip && !isSet(ing.ipMode)) ing.ipMode = 'VIP';
  }
}

const isSet = <V>(v: V | null | undefined): v is V => v !== undefined && v !== null;

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
      defaultService(obj);
    },
    prepareForCreate(obj) {
      obj.status = { loadBalancer: {} };
    },
    prepareForUpdate(obj, old) {
      keepStatusOnUpdate.prepareForUpdate!(obj, old);
      dropTypeDependentFields(obj, old);
    },
    validate: validateServiceCreate,
    validateUpdate: validateServiceUpdate,
  },
});

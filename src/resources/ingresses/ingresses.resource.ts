/**
 * Ingress: one storage (networking.k8s.io/v1, upstream's storage version) served as
 * networking.k8s.io/v1 and as 1.10's extensions/v1beta1 through upstream's conversion
 * (ingresses.conversion.ts). Short name `ing`; `/status` writes only the load balancer status;
 * generation counts spec changes (pkg/registry/networking/ingress/strategy.go).
 */
import { patchMetaOf } from '../../api/core/patch-meta.js';
import type { ResourceDefinition, SubresourceDefinition } from '../../registry/types.js';
import {
  defineResource,
  keepStatusOnUpdate,
  mergeMetaForSubresource,
  specGeneration,
  statusSubresource,
} from '../define.js';
import { extensionsIngressConversion, keepStatusPorts, keepV1Fields } from './ingresses.conversion.js';
import { ingressMessages, ingressV1beta1Messages } from './ingresses.protobuf.js';
import { ingressSchema, ingressV1beta1Schema, type Ingress } from './ingresses.schema.js';
import { ingressPrinter } from './ingresses.table.js';
import { validateIngress, validateIngressUpdate } from './ingresses.validation.js';

const generation = specGeneration();

const common = {
  kind: 'Ingress',
  description:
    'Ingress is a collection of rules that allow inbound connections to reach the endpoints defined by a backend: externally reachable URLs, load balancing, TLS termination, name-based virtual hosting.',
  plural: 'ingresses',
  namespaced: true,
  shortNames: ['ing'],
  storagePrefix: 'ingress',
  printer: ingressPrinter,
} as const;

const strategy = {
  ...generation,
  prepareForCreate(obj: Ingress) {
    // Upstream PrepareForCreate: create cannot set status (an empty IngressStatus: `loadBalancer: {}`).
    obj.status = { loadBalancer: {} };
    generation.prepareForCreate!(obj);
  },
  prepareForUpdate(obj: Ingress, old: Ingress) {
    keepStatusOnUpdate.prepareForUpdate!(obj, old);
    generation.prepareForUpdate!(obj, old);
  },
  validate: validateIngress,
  validateUpdate: validateIngressUpdate,
};

/** networking.k8s.io/v1: the storage version. */
export const ingresses = defineResource({
  ...common,
  group: 'networking.k8s.io',
  schema: ingressSchema,
  protobuf: ingressMessages,
  subresources: [statusSubresource('Ingress')],
  strategy,
});

/** `/status` of extensions/v1beta1: the status, with the ports 1.10 cannot show kept. */
const extensionsStatus: SubresourceDefinition<Ingress> = {
  ...statusSubresource<Ingress>('Ingress'),
  merge: (requested, old) => ({
    ...old,
    metadata: mergeMetaForSubresource(requested, old),
    status: keepStatusPorts((requested as Ingress).status, old.status) as Ingress['status'],
  }),
};

/**
 * extensions/v1beta1 of 1.10 over the v1 storage (its strategy, printer and subresources see
 * stored objects); an update keeps the v1 fields it cannot show.
 */
export const ingressesExtensions: ResourceDefinition<Ingress> = {
  ...ingresses,
  group: 'extensions',
  version: 'v1beta1',
  schema: ingressV1beta1Schema,
  patchMeta: patchMetaOf(ingressV1beta1Schema),
  protobuf: ingressV1beta1Messages,
  conversion: extensionsIngressConversion,
  subresources: [extensionsStatus],
  strategy: {
    ...strategy,
    prepareForUpdate(obj: Ingress, old: Ingress) {
      keepV1Fields(obj, old);
      strategy.prepareForUpdate(obj, old);
    },
  },
};

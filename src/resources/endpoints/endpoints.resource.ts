/** Endpoints (core/v1), stored under upstream's special prefix `services/endpoints`. */
import { endpointsPrinter } from './endpoints.table.js';
import { endpointsSchema } from './endpoints.schema.js';
import { defineResource } from '../define.js';
import { endpointsMessages } from './endpoints.protobuf.js';
import { validateEndpoints, validateEndpointsUpdate } from './endpoints.validation.js';

export const endpoints = defineResource({
  kind: 'Endpoints',
  description: 'Endpoints lists the network addresses and ports that implement a service.',
  protobuf: endpointsMessages,
  plural: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  schema: endpointsSchema,
  printer: endpointsPrinter,
  shortNames: ['ep'],
  storagePrefix: 'services/endpoints',
  strategy: {
    defaults(obj) {
      for (const subset of obj.subsets ?? []) for (const p of subset.ports ?? []) p.protocol ||= 'TCP';
    },
    validate: validateEndpoints,
    validateUpdate: validateEndpointsUpdate,
  },
});

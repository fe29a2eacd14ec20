/**
 * EndpointSlice (discovery.k8s.io/v1; upstream pkg/registry/discovery/endpointslice):
 * namespaced, no short names, no status; ports default to name "" and protocol TCP;
 * addressType is immutable. Rules in endpointslices.strategy.ts and .validation.ts.
 */
import { defineResource } from '../define.js';
import { endpointSliceMessages } from './endpointslices.protobuf.js';
import { endpointSliceSchema } from './endpointslices.schema.js';
import { endpointSliceStrategy } from './endpointslices.strategy.js';
import { endpointSlicePrinter } from './endpointslices.table.js';

export const endpointSlices = defineResource({
  group: 'discovery.k8s.io',
  version: 'v1',
  kind: 'EndpointSlice',
  description:
    'EndpointSlice represents a set of service endpoints; most are created by the EndpointSlice controller for a Service (label kubernetes.io/service-name).',
  plural: 'endpointslices',
  namespaced: true,
  schema: endpointSliceSchema,
  printer: endpointSlicePrinter,
  protobuf: endpointSliceMessages,
  strategy: endpointSliceStrategy,
});

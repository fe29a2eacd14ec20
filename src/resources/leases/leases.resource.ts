/**
 * Lease (coordination.k8s.io/v1; upstream pkg/registry/coordination/lease): leader election
 * and node heartbeats. No short names, no categories, no subresources; spec is free to change
 * (the holder renews it), with the checks of ValidateLeaseSpec on every write.
 */
import { defineResource } from '../define.js';
import { leaseMessages } from './leases.protobuf.js';
import { leaseSchema } from './leases.schema.js';
import { leasePrinter } from './leases.table.js';
import { validateLease } from './leases.validation.js';

export const leases = defineResource({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  description: 'Lease defines a lease concept: who holds it, since when, and for how long.',
  plural: 'leases',
  namespaced: true,
  schema: leaseSchema,
  printer: leasePrinter,
  protobuf: leaseMessages,
  strategy: { validate: validateLease, validateUpdate: (obj) => validateLease(obj) },
});

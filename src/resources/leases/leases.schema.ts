/** Lease fields (k8s.io/api coordination/v1 types.go). */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, obj, str, time } from '../../api/core/schema-kit.js';

export const leaseSchema = kindSchema({
  spec: obj({
    acquireTime: time.describe('When the current lease was acquired (MicroTime: RFC 3339 with microseconds).'),
    holderIdentity: str.describe('Identity of the holder of the current lease.'),
    leaseDurationSeconds: int.describe(
      'Seconds candidates must wait before forcing acquisition of the lease, measured from the last observed renewTime.',
    ),
    leaseTransitions: int.describe('Number of transitions of the lease between holders.'),
    preferredHolder: str.describe(
      'A more suitable holder the current holder should give the lease up to; may be set only with strategy.',
    ),
    renewTime: time.describe('When the current holder last renewed the lease (MicroTime).'),
    strategy: str.describe(
      'Strategy for picking the leader in coordinated leader election: OldestEmulationVersion, or a qualified name with a prefix. Unset: no coordination.',
    ),
  }).describe('Specification of the Lease.'),
});

/** A Lease as its schema describes it. */
export type Lease = KindObject<typeof leaseSchema>;

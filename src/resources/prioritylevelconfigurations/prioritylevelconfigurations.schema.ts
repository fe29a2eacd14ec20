/**
 * PriorityLevelConfiguration fields (k8s.io/api flowcontrol/v1 types.go, 1.33): a level is
 * Exempt (never limited; only the one named `exempt`) or Limited (a share of the server's
 * concurrency, and queuing or rejection of what exceeds it). Required fields are those
 * upstream's OpenAPI requires; status conditions merge by `type`.
 */
import { int, obj, reqStr } from '../../api/core/schema-kit.js';
import { kindSchema } from '../../api/meta-schema.js';
import type { KindObject } from '../../registry/types.js';
import { conditionsStatus } from '../flowcontrol-common/status.js';

const lendablePercent = int.describe(
  "The percentage (0 to 100, default 0) of the level's nominal concurrency limit that other levels may borrow.",
);

export const priorityLevelConfigurationSchema = kindSchema({
  spec: obj({
    type: reqStr.describe(
      "Exempt (requests are never limited or queued and take no share from other levels) or Limited (requests are limited to the level's share of the server's concurrency).",
    ),
    limited: obj({
      nominalConcurrencyShares: int.describe(
        "The level's share of the server's concurrency limit, in proportion to the shares of every level (default 30; 0 makes a level that borrows every seat it uses).",
      ),
      limitResponse: obj({
        type: reqStr.describe('Queue (requests wait in queues until they can run or a queue is full) or Reject.'),
        queuing: obj({
          queues: int.describe(
            'The number of queues of the level on each server (default 64; 1 turns shuffle sharding off).',
          ),
          handSize: int.describe(
            'How many queues a flow is dealt by shuffle sharding; the request joins the shortest of them (default 8; at most queues).',
          ),
          queueLengthLimit: int.describe('How many requests may wait in one queue; more are rejected (default 50).'),
        }).describe('Queuing parameters; only with type Queue.'),
      }).describe('What happens to a request that cannot run at once.'),
      lendablePercent,
      borrowingLimitPercent: int.describe(
        'How many seats the level may borrow from others, as a percentage of its nominal concurrency limit (may exceed 100); absent: no limit.',
      ),
    }).describe('How a Limited level is limited; set if and only if type is Limited.'),
    exempt: obj({
      nominalConcurrencyShares: int.describe(
        "The level's nominal share of the server's concurrency, lent to other levels, which its own requests never wait for (default 0).",
      ),
      lendablePercent,
    }).describe(
      'Tunables of an Exempt level (the only fields of the mandatory exempt level an operator may change); never with type Limited.',
    ),
  }).describe('How requests of this priority level are limited.'),
  status: conditionsStatus('PriorityLevelConfiguration', 'ConcurrencyShared'),
});

/** A PriorityLevelConfiguration as its schema describes it. */
export type PriorityLevelConfiguration = KindObject<typeof priorityLevelConfigurationSchema>;
/** The spec of a PriorityLevelConfiguration. */
export type PriorityLevelConfigurationSpec = NonNullable<PriorityLevelConfiguration['spec']>;
/** The parameters of a Limited level. */
export type LimitedPriorityLevelConfiguration = NonNullable<PriorityLevelConfigurationSpec['limited']>;
/** Queuing parameters. */
export type QueuingConfiguration = NonNullable<
  NonNullable<LimitedPriorityLevelConfiguration['limitResponse']>['queuing']
>;

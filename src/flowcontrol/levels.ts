/**
 * Priority level state (upstream k8s.io/apiserver pkg/util/flowcontrol apf_controller.go
 * priorityLevelState and finishQueueSetReconfigsLocked): a level's queuing shape from its spec,
 * its nominal, lower and upper concurrency limits from the server's limit and the shares of
 * all levels, the largest request it takes, and the seat demand that lending and borrowing use.
 */
import { Integrator, SeatDemandStats } from './concurrency.js';
import { QueueSet, type QueuingConfig } from './queue-set.js';
import { Dealer } from './shuffle-sharding.js';
import { nameOf, type PriorityLevelView } from './types.js';

/** Upstream's priorityLevelMaxSeatsPercent: no request may take more than 15% of a level's seats. */
const MAX_SEATS_FRACTION = 0.15;

/** One priority level as the dispatcher runs it. */
export class LevelState {
  readonly queues: QueueSet;
  readonly demand: Integrator;
  readonly stats = new SeatDemandStats();
  nominalCL = 0;
  minCL = 0;
  maxCL = 0;
  currentCL = 0;
  /** Largest seats one request of this level may take (0: no level limit). */
  maxSeats = 0;
  /** No longer configured; kept until its requests are done. */
  quiescing = false;
  /** Whether the limits have been computed once (a new level starts at nominal minus half its lendable seats). */
  sized = false;

  constructor(
    public pl: PriorityLevelView,
    public queuing: QueuingConfig,
    now: () => number,
  ) {
    this.demand = new Integrator(now);
    this.queues = new QueueSet(queuing, now, {
      changed: (t) => this.demand.set(t.seatsInUse + t.seatsWaiting),
    });
  }

  get name(): string {
    return nameOf(this.pl);
  }

  get exempt(): boolean {
    return this.pl.spec.type === 'Exempt';
  }

  /** nominalConcurrencyShares, lendablePercent and borrowingLimitPercent (upstream plSpecCommons). */
  get shares(): { nominal: number; lendable?: number | null; borrowing?: number | null } {
    const limited = this.pl.spec.limited;
    if (limited)
      return {
        nominal: limited.nominalConcurrencyShares ?? 30,
        lendable: limited.lendablePercent,
        borrowing: limited.borrowingLimitPercent,
      };
    const exempt = this.pl.spec.exempt;
    return { nominal: exempt?.nominalConcurrencyShares ?? 0, lendable: exempt?.lendablePercent };
  }

  /**
   * Set the nominal limits for a server of `serverCL` seats whose levels hold `shareSum` shares
   * (upstream: nominal = ceil(serverCL x shares / sum), lower = nominal - lendable, upper =
   * nominal + borrowing limit, or + serverCL without one). Returns the nominal limit.
   */
  size(serverCL: number, shareSum: number): number {
    const { nominal, lendable, borrowing } = this.shares;
    const cl = Math.ceil((serverCL * nominal) / shareSum);
    const lendableCL = lendable == null ? 0 : Math.round((cl * lendable) / 100);
    const borrowingCL = borrowing == null ? serverCL : Math.round((cl * borrowing) / 100);
    this.nominalCL = cl;
    this.minCL = cl - lendableCL;
    this.maxCL = cl + borrowingCL;
    this.maxSeats =
      this.queuing.queues > 0
        ? Math.max(1, Math.min(Math.ceil(cl * MAX_SEATS_FRACTION), Math.floor(cl / this.queuing.handSize)))
        : 0;
    if (!this.sized) {
      this.currentCL = cl - Math.floor(lendableCL / 2);
      this.sized = true;
    }
    return cl;
  }
}

/**
 * The queuing shape of a level's spec, or the reason it is unusable (upstream
 * queueSetCompleterForPL): the union must match the type, only `exempt` may be (and must be)
 * Exempt, Reject must have no queuing and Queue must have it, and the queues and hand size
 * must be dealable. Queuing defaults (64 queues, hand of 8, 50 per queue) fill what is absent.
 */
export function queuingOf(pl: PriorityLevelView): QueuingConfig | string {
  const { type, limited, exempt } = pl.spec;
  if ((type === 'Limited') !== (limited != null)) return 'broken union structure at the top, for Limited';
  if ((type === 'Exempt') !== (exempt != null)) return 'broken union structure at the top, for Exempt';
  if ((type === 'Exempt') !== (nameOf(pl) === 'exempt')) return 'non-alignment between name and type';
  if (!limited) return { queues: -1, handSize: 0, queueLengthLimit: 0 };
  const response = limited.limitResponse;
  if ((response?.type === 'Reject') !== (response?.queuing == null)) return 'broken union structure for limit response';
  const q = response?.queuing;
  if (!q) return { queues: 0, handSize: 0, queueLengthLimit: 0 };
  const config = { queues: q.queues ?? 64, handSize: q.handSize ?? 8, queueLengthLimit: q.queueLengthLimit ?? 50 };
  try {
    new Dealer(config.queues, config.handSize);
  } catch (err) {
    return (err as Error).message;
  }
  return config;
}

/**
 * One priority level's fair queuing (upstream k8s.io/apiserver pkg/util/flowcontrol/fairqueuing/
 * queueset/queueset.go): requests wait in queues chosen by shuffle sharding and are dispatched
 * when the level's seats allow, the queue whose oldest request would finish first in virtual
 * time going first; a request's work is its seats times the estimated service time (3 ms) plus
 * its final seats times its additional latency (watch notifications of a write).
 *  - Virtual time R (seat-seconds) advances at min(seats asked, concurrency limit) / active
 *    queues per second, so each active queue gets an equal share of the level.
 *  - A request is rejected at once when the level's seats are all in use and its queue holds
 *    `queueLengthLimit` requests (reason `queue-full`); a level without queues (limitResponse
 *    Reject) rejects it when its seats do not fit (`concurrency-limit`); the exempt level never
 *    waits. A waiting request whose wait limit passes or whose client leaves is removed
 *    (`time-out`, `cancelled`).
 * Single-threaded: every method runs to completion, so no locking is needed.
 */
import { QueuedRequest, type Queue, type RequestOwner, type WorkEstimate } from './queued-request.js';
import { Dealer } from './shuffle-sharding.js';

export { QueuedRequest, type WorkEstimate };

/** Seconds of service a request is assumed to take before it finishes (upstream estimatedServiceDuration). */
const ESTIMATED_SERVICE_SECONDS = 0.003;

/** Queuing shape: queues > 0 queues; 0 = Reject (no queues); -1 = exempt (no limit). */
export interface QueuingConfig {
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

/** Why a request was not executed (apiserver_flowcontrol_rejected_requests_total reason). */
export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** Counts a queue set reports as they change (for metrics and seat demand). */
export interface QueueSetObserver {
  /** Requests and seats waiting and executing changed (totals of the set). */
  changed(totals: { waiting: number; executing: number; seatsWaiting: number; seatsInUse: number }): void;
}

/** See the file comment. `now` returns milliseconds. */
export class QueueSet implements RequestOwner {
  private queues: Queue[] = [];
  private dealer?: Dealer;
  private config: QueuingConfig;
  private concurrencyLimit = 0;
  private currentR = 0;
  private lastRealTime: number;
  private robinIndex = -1;
  private enqueues = 0;
  totRequestsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  totSeatsWaiting = 0;
  /** Requests dispatched, rejected on arrival, timed out and cancelled while waiting, since the set was made. */
  readonly counts = { dispatched: 0, rejected: 0, timedOut: 0, cancelled: 0 };

  constructor(
    config: QueuingConfig,
    private readonly now: () => number,
    private readonly observer?: QueueSetObserver,
  ) {
    this.config = config;
    this.lastRealTime = now();
    this.configure(config, 0);
  }

  /**
   * Take a new queuing shape and concurrency limit; queues are added, never dropped while
   * busy (extra ones go when empty). Throws Error for a shape shuffle sharding cannot deal.
   */
  configure(config: QueuingConfig, concurrencyLimit: number): void {
    this.syncTime();
    if (config.queues > 0) {
      this.dealer = new Dealer(config.queues, config.handSize);
      while (this.queues.length < config.queues) this.queues.push(newQueue());
    }
    this.config = config;
    this.concurrencyLimit = concurrencyLimit;
    this.dispatchAsMuchAsPossible();
  }

  get limit(): number {
    return this.concurrencyLimit;
  }

  /** Queues holding waiting requests. */
  get activeQueues(): number {
    let n = 0;
    for (const q of this.queues) if (q.waiting.length > q.head) n++;
    return n;
  }

  /** True when nothing waits or executes. */
  get idle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /**
   * Admit a request of `hash`'s flow: a QueuedRequest already executing (state 'executing'),
   * one waiting (await its `decided`), or the reason it is rejected at once.
   */
  startRequest(work: WorkEstimate, hash: bigint): QueuedRequest | RejectReason {
    this.syncTime();
    const initialWork = work.initialSeats * ESTIMATED_SERVICE_SECONDS;
    const finalWork = (work.finalSeats * work.additionalLatencyMs) / 1000;
    const req = new QueuedRequest(this, work.initialSeats, work, initialWork + finalWork, this.now());
    if (this.config.queues < 1) {
      if (!this.canAccommodate(req.maxSeats)) {
        this.counts.rejected++;
        return 'concurrency-limit';
      }
      this.execute(req);
      this.report();
      return req;
    }
    const queue = this.shuffleShard(hash);
    if (
      this.totSeatsInUse >= this.concurrencyLimit &&
      queue.waiting.length - queue.head >= this.config.queueLengthLimit
    ) {
      this.boundNextDispatch(queue);
      this.counts.rejected++;
      return 'queue-full';
    }
    if (queue.waiting.length === queue.head && queue.executing === 0) queue.nextDispatchR = this.currentR;
    req.queue = queue;
    req.arrivalR = this.currentR;
    queue.waiting.push(req);
    queue.waitingWork += req.totalWork;
    queue.waitingSeats += req.maxSeats;
    this.totRequestsWaiting++;
    this.totSeatsWaiting += req.maxSeats;
    this.boundNextDispatch(queue);
    this.dispatchAsMuchAsPossible();
    this.report();
    return req;
  }

  /** @internal Remove a waiting request (QueuedRequest.cancel). */
  remove(req: QueuedRequest, reason: 'time-out' | 'cancelled'): void {
    const queue = req.queue;
    // Only a waiting request (always in a queue) can be removed.
    if (req.state !== 'waiting' || !queue) return;
    if (reason === 'time-out') this.counts.timedOut++;
    else this.counts.cancelled++;
    this.syncTime();
    const at = queue.waiting.indexOf(req, queue.head);
    if (at >= 0) queue.waiting.splice(at, 1);
    this.unwait(queue, req);
    req.state = 'removed';
    req.decide(false);
    this.boundNextDispatch(queue);
    this.dropIfEmpty(queue);
    this.report();
  }

  /** @internal Finish an executing request (QueuedRequest.finish). */
  finish(req: QueuedRequest): void {
    if (req.state !== 'executing') return;
    req.state = 'finished';
    this.syncTime();
    const now = this.now();
    this.totRequestsExecuting--;
    const queue = req.queue;
    if (queue) {
      queue.executing--;
      // Correct the queue's virtual finish by the request's actual service time.
      queue.nextDispatchR -= req.initialSeats * (ESTIMATED_SERVICE_SECONDS - (now - req.startTime) / 1000);
      this.boundNextDispatch(queue);
    }
    const release = () => {
      this.totSeatsInUse -= req.maxSeats;
      if (queue) {
        queue.seatsInUse -= req.maxSeats;
        this.dropIfEmpty(queue);
      }
    };
    if (req.additionalLatencyMs <= 0) {
      release();
    } else {
      setTimeout(() => {
        this.syncTime();
        release();
        this.dispatchAsMuchAsPossible();
        this.report();
      }, req.additionalLatencyMs).unref();
    }
    this.dispatchAsMuchAsPossible();
    this.report();
  }

  private execute(req: QueuedRequest): void {
    this.counts.dispatched++;
    req.state = 'executing';
    req.startTime = this.now();
    this.totRequestsExecuting++;
    this.totSeatsInUse += req.maxSeats;
    if (req.queue) req.queue.seatsInUse += req.maxSeats;
    req.decide(true);
  }

  private unwait(queue: Queue, req: QueuedRequest): void {
    queue.waitingWork -= req.totalWork;
    queue.waitingSeats -= req.maxSeats;
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= req.maxSeats;
    if (queue.head > 64 && queue.head * 2 > queue.waiting.length) {
      queue.waiting.splice(0, queue.head);
      queue.head = 0;
    }
  }

  private syncTime(): void {
    const now = this.now();
    const dt = (now - this.lastRealTime) / 1000;
    this.lastRealTime = now;
    if (dt > 0) this.currentR += this.virtualTimeRatio() * dt;
  }

  /** Seats a second each active queue gets: min(seats asked, limit) / active queues (0 when idle). */
  private virtualTimeRatio(): number {
    let active = 0;
    let asked = 0;
    for (const q of this.queues) {
      asked += q.seatsInUse + q.waitingSeats;
      if (q.waiting.length > q.head || q.executing > 0) active++;
    }
    return active === 0 ? 0 : Math.min(asked, this.concurrencyLimit) / active;
  }

  /** The queue of the dealt hand with the least waiting work (ties go round the hand). */
  private shuffleShard(hash: bigint): Queue {
    const hand = (this.dealer as Dealer).deal(hash);
    const offset = this.enqueues % hand.length;
    this.enqueues++;
    let best = this.queues[hand[offset]];
    for (let i = 1; i < hand.length; i++) {
      const q = this.queues[hand[(offset + i) % hand.length]];
      if (q.waitingWork < best.waitingWork) best = q;
    }
    return best;
  }

  private dispatchAsMuchAsPossible(): void {
    while (this.totRequestsWaiting > 0 && this.totSeatsInUse < this.concurrencyLimit && this.dispatchOne());
  }

  /** Dispatch the oldest request of the queue with the earliest virtual finish, if its seats fit. */
  private dispatchOne(): boolean {
    let minFinish = Infinity;
    let minQueue: Queue | undefined;
    let minIndex = -1;
    const n = this.queues.length;
    for (let i = 0; i < n; i++) {
      this.robinIndex = (this.robinIndex + 1) % n;
      const q = this.queues[this.robinIndex];
      if (q.waiting.length === q.head) continue;
      const finish = q.nextDispatchR + q.waiting[q.head].totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        minQueue = q;
        minIndex = this.robinIndex;
      }
    }
    if (!minQueue) return false;
    const req = minQueue.waiting[minQueue.head];
    if (!this.canAccommodate(req.maxSeats)) return false;
    minQueue.head++;
    this.unwait(minQueue, req);
    if (req.finalSeats > this.concurrencyLimit) {
      // Spread the final work over the seats there are (upstream caps FinalSeats likewise).
      const finalWork = req.finalSeats * req.additionalLatencyMs;
      req.finalSeats = this.concurrencyLimit;
      req.additionalLatencyMs = finalWork / Math.max(1, this.concurrencyLimit);
    }
    this.robinIndex = minIndex;
    this.execute(req);
    minQueue.executing++;
    minQueue.nextDispatchR += req.totalWork;
    this.boundNextDispatch(minQueue);
    return true;
  }

  private canAccommodate(seats: number): boolean {
    if (this.config.queues < 0) return true;
    if (seats > this.concurrencyLimit) return this.totRequestsExecuting === 0;
    return this.totSeatsInUse + seats <= this.concurrencyLimit;
  }

  /** A queue's next dispatch is never earlier in virtual time than its oldest request's arrival. */
  private boundNextDispatch(queue: Queue): void {
    if (queue.waiting.length === queue.head) return;
    const arrival = queue.waiting[queue.head].arrivalR;
    if (queue.nextDispatchR < arrival) queue.nextDispatchR = arrival;
  }

  /** Queues beyond the configured number go once empty. */
  private dropIfEmpty(queue: Queue): void {
    if (this.queues.length <= Math.max(0, this.config.queues)) return;
    if (queue.waiting.length > queue.head || queue.executing > 0 || queue.seatsInUse > 0) return;
    const at = this.queues.indexOf(queue);
    if (at < 0) return;
    this.queues.splice(at, 1);
    if (this.robinIndex >= at) this.robinIndex--;
  }

  private report(): void {
    this.observer?.changed({
      waiting: this.totRequestsWaiting,
      executing: this.totRequestsExecuting,
      seatsWaiting: this.totSeatsWaiting,
      seatsInUse: this.totSeatsInUse,
    });
  }
}

function newQueue(): Queue {
  return { waiting: [], head: 0, executing: 0, seatsInUse: 0, nextDispatchR: 0, waitingWork: 0, waitingSeats: 0 };
}

/**
 * One request in a priority level's queue set (upstream queueset's `request`): its seats and
 * work, where it stands (waiting, executing, finished, removed), and the promise its filter
 * awaits while it waits.
 */

/** How many seats a request takes and for how long after it finishes (upstream WorkEstimate). */
export interface WorkEstimate {
  readonly initialSeats: number;
  /** Seats held for `additionalLatencyMs` after the request finishes (0 for none). */
  readonly finalSeats: number;
  readonly additionalLatencyMs: number;
}

/** One queue of a set: its waiting requests (FIFO), what executes from it, and its virtual time. */
export interface Queue {
  readonly waiting: QueuedRequest[];
  /** Index of the oldest waiting request in `waiting` (the array is compacted now and then). */
  head: number;
  executing: number;
  seatsInUse: number;
  nextDispatchR: number;
  /** Sums over the waiting requests. */
  waitingWork: number;
  waitingSeats: number;
}

/** What a request asks of the queue set that admitted it. */
export interface RequestOwner {
  remove(req: QueuedRequest, reason: 'time-out' | 'cancelled'): void;
  finish(req: QueuedRequest): void;
}

/** A request admitted to the set: executing, or waiting in a queue. */
export class QueuedRequest {
  private settle?: (executed: boolean) => void;
  private decision?: Promise<boolean>;
  state: 'waiting' | 'executing' | 'finished' | 'removed' = 'waiting';
  startTime = 0;
  /** The queue it waits or executes in; absent for one dispatched without queuing. */
  queue?: Queue;
  arrivalR = 0;
  finalSeats: number;
  additionalLatencyMs: number;

  constructor(
    readonly set: RequestOwner,
    readonly initialSeats: number,
    work: WorkEstimate,
    /** Seat-seconds: initial work plus final work. */
    readonly totalWork: number,
    readonly arrivalTime: number,
  ) {
    this.finalSeats = work.finalSeats;
    this.additionalLatencyMs = work.additionalLatencyMs;
  }

  /** Resolves with true once dispatched, false once removed unexecuted (made on first use: most requests never wait). */
  get decided(): Promise<boolean> {
    if (this.decision) return this.decision;
    if (this.state === 'waiting') return (this.decision = new Promise((resolve) => (this.settle = resolve)));
    return (this.decision = Promise.resolve(this.state !== 'removed'));
  }

  get maxSeats(): number {
    return Math.max(this.initialSeats, this.finalSeats);
  }

  /** @internal */
  decide(executed: boolean): void {
    this.settle?.(executed);
    this.settle = undefined;
  }

  /** Stop waiting because the wait limit passed (`time-out`) or the client left (`cancelled`); no effect once dispatched. */
  cancel(reason: 'time-out' | 'cancelled'): void {
    this.set.remove(this, reason);
  }

  /** The request finished executing: free its seats (its final seats after their latency). */
  finish(): void {
    this.set.finish(this);
  }
}

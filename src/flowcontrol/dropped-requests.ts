/**
 * The `Retry-After` of rejected requests, per priority level (upstream k8s.io/apiserver
 * pkg/util/flowcontrol dropped_requests_tracker.go): it starts at 1 s, doubles (at most once
 * per current value's seconds, up to 32) when at least 3 x retryAfter requests were dropped in
 * the last retryAfter seconds, and goes down by 1 when fewer than retryAfter were, as TCP's
 * congestion window does; it is recomputed when a drop lands in a new second.
 */

const MAX_RETRY_AFTER = 32;

interface SecondCount {
  readonly second: number;
  readonly count: number;
}

class PriorityLevelDrops {
  private history: SecondCount[] = [];
  private currentSecond = 0;
  private currentCount = 0;
  retryAfter = 1;
  private updatedAt = 0;

  record(second: number): void {
    if (second === this.currentSecond) {
      this.currentCount++;
      return;
    }
    this.history.push({ second: this.currentSecond, count: this.currentCount });
    const keep = Math.min(2 * this.retryAfter, MAX_RETRY_AFTER);
    let start = 0;
    while (start < this.history.length && this.currentSecond - this.history[start].second > keep) start++;
    if (start > 0) this.history = this.history.slice(start);
    this.currentSecond = second;
    this.currentCount = 1;
    this.update(second);
  }

  private update(now: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i];
      if (now - h.second > this.retryAfter) break;
      if (h.second < now) dropped += h.count;
    }
    if (now - this.updatedAt >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, MAX_RETRY_AFTER);
      this.updatedAt = now;
    } else if (dropped < this.retryAfter && this.retryAfter > 1) {
      this.retryAfter--;
    }
  }
}

/** Dropped-request history per priority level; see the file comment. */
export class DroppedRequests {
  private readonly levels = new Map<string, PriorityLevelDrops>();

  /** `now` returns milliseconds since the epoch (tests give their own clock). */
  constructor(private readonly now: () => number = Date.now) {}

  /** Note a request of priority level `level` rejected now. */
  record(level: string): void {
    let drops = this.levels.get(level);
    if (!drops) this.levels.set(level, (drops = new PriorityLevelDrops()));
    drops.record(Math.floor(this.now() / 1000));
  }

  /** Seconds a client of `level` is asked to wait before retrying (1..32). */
  retryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }
}

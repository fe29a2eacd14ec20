/**
 * A de-duplicating work queue for controllers, as client-go's workqueue: items are keyed, so a
 * burst of events for one object is processed once; up to `workers` items are processed at once
 * (upstream's --concurrent-*-syncs), never two of the same key: a key added while it is being
 * processed is processed again once that run ends (client-go's dirty and processing sets).
 * Failures are retried with capped exponential backoff (100 ms doubling, at most 10 s).
 * `addAfter` is client-go's delaying queue: an item waits, then is added; a key already waiting
 * keeps the sooner of its two times.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';

export class WorkQueue<T> {
  /** Keys waiting, in the order first added, with their newest item. */
  private readonly pending = new Map<string, T>();
  /** Keys being processed now. */
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  /** Keys waiting for `addAfter`, with when (ms since the epoch) and their timer. */
  private readonly waiting = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private active = 0;
  private stopped = false;

  /**
   * @param keyOf the key of an item (items of one key are one piece of work)
   * @param handle processes an item; a rejection retries it after the backoff
   * @param workers how many items are processed at once (default 1)
   */
  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly handle: (item: T) => Promise<void>,
    private readonly logger: Logger,
    private readonly workers = 1,
  ) {}

  add(item: T): void {
    if (this.stopped) return;
    this.pending.set(this.keyOf(item), item);
    this.startWorkers();
  }

  /** Add `item` in `delayMs` (0 or less: now); a key already waiting keeps the sooner time. */
  addAfter(item: T, delayMs: number): void {
    if (this.stopped) return;
    if (!(delayMs > 0)) return this.add(item);
    const key = this.keyOf(item);
    const at = Date.now() + delayMs;
    const before = this.waiting.get(key);
    if (before && before.at <= at) return;
    clearTimeout(before?.timer);
    const timer = setTimeout(() => {
      this.waiting.delete(key);
      this.add(item);
    }, delayMs);
    timer.unref();
    this.waiting.set(key, { at, timer });
  }

  /** Drop everything pending and waiting; later adds are ignored. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  private startWorkers(): void {
    while (this.active < this.workers && this.hasReady()) {
      this.active++;
      void this.work();
    }
  }

  /** Whether some pending key is not being processed. */
  private hasReady(): boolean {
    if (this.pending.size > this.processing.size) return true;
    for (const key of this.pending.keys()) if (!this.processing.has(key)) return true;
    return false;
  }

  /** The oldest pending key that is not being processed, taken off the pending set. */
  private take(): [string, T] | undefined {
    for (const [key, item] of this.pending)
      if (!this.processing.has(key)) {
        this.pending.delete(key);
        return [key, item];
      }
    return undefined;
  }

  private async work(): Promise<void> {
    try {
      for (let next = this.take(); next && !this.stopped; next = this.take()) {
        const [key, item] = next;
        this.processing.add(key);
        try {
          await this.handle(item);
          this.failures.delete(key);
        } catch (err) {
          const n = (this.failures.get(key) ?? 0) + 1;
          this.failures.set(key, n);
          this.logger.debug({ key, attempt: n, err: errorMessage(err) }, 'work item will be retried');
          setTimeout(() => this.add(item), Math.min(10_000, 100 * 2 ** n)).unref();
        } finally {
          this.processing.delete(key);
        }
      }
    } finally {
      this.active--;
      // A key re-added while it was processed may be waiting for a worker.
      if (!this.stopped) this.startWorkers();
    }
  }
}

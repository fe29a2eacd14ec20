/**
 * A small de-duplicating work queue for controllers: one worker, items keyed so a burst of
 * events for one object is processed once, failures retried with capped exponential backoff.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';

export class WorkQueue<T> {
  private readonly pending = new Map<string, T>();
  private readonly failures = new Map<string, number>();
  private running = false;
  private stopped = false;

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly handle: (item: T) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  add(item: T): void {
    if (this.stopped) return;
    this.pending.set(this.keyOf(item), item);
    if (!this.running) void this.drain();
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.size && !this.stopped) {
        const first = this.pending.entries().next();
        if (first.done) break;
        const [key, item] = first.value;
        this.pending.delete(key);
        try {
          await this.handle(item);
          this.failures.delete(key);
        } catch (err) {
          const n = (this.failures.get(key) ?? 0) + 1;
          this.failures.set(key, n);
          this.logger.debug({ key, attempt: n, err: errorMessage(err) }, 'work item will be retried');
          setTimeout(() => this.add(item), Math.min(10_000, 100 * 2 ** n)).unref();
        }
      }
    } finally {
      this.running = false;
    }
  }
}

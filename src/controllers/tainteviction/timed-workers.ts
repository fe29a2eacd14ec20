/**
 * Work that fires at a set time, one per key (upstream 1.33
 * pkg/controller/tainteviction/timed_workers.go TimedWorkerQueue): `addWork` schedules the
 * handler for a key at `fireAt` (at once when that has passed), unless work for the key exists;
 * `cancelWork` drops it. Work that ran successfully stays known (so it is not scheduled again)
 * until cancelled; work that failed is forgotten, so it may be added again. Times are ms since
 * the epoch.
 */

/** One scheduled piece of work: when it was created and when it fires. */
export interface TimedWork {
  readonly createdAt: number;
  readonly fireAt: number;
}

interface Entry extends TimedWork {
  timer?: NodeJS.Timeout;
  done?: boolean;
}

/** The queue of timed work, one per key (see the file's comment). */
export class TimedWorkerQueue {
  private readonly workers = new Map<string, Entry>();

  /**
   * @param handle runs the work of `key` (fired at `fireAt`); a rejection forgets the work
   * @param now the clock (ms since the epoch)
   */
  constructor(
    private readonly handle: (key: string, fireAt: number) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Schedule work for `key` unless some exists (upstream AddWork). */
  addWork(key: string, createdAt: number, fireAt: number): void {
    if (this.workers.has(key)) return;
    const entry: Entry = { createdAt, fireAt };
    this.workers.set(key, entry);
    const run = () => {
      entry.timer = undefined;
      this.handle(key, fireAt).then(
        () => {
          if (this.workers.get(key) === entry) entry.done = true;
        },
        () => {
          if (this.workers.get(key) === entry) this.workers.delete(key);
        },
      );
    };
    const delay = fireAt - this.now();
    if (delay <= 0) run();
    else {
      entry.timer = setTimeout(run, delay);
      entry.timer.unref?.();
    }
  }

  /** Drop the work of `key`; whether there was work not yet run (upstream CancelWork). */
  cancelWork(key: string): boolean {
    const entry = this.workers.get(key);
    if (!entry) return false;
    this.workers.delete(key);
    if (entry.timer) {
      clearTimeout(entry.timer);
      return true;
    }
    return !entry.done;
  }

  /** The work scheduled for `key` and not yet run (upstream GetWorkerUnsafe). */
  get(key: string): TimedWork | undefined {
    const entry = this.workers.get(key);
    return entry && !entry.done ? { createdAt: entry.createdAt, fireAt: entry.fireAt } : undefined;
  }

  /** Cancel everything. */
  stop(): void {
    for (const entry of this.workers.values()) clearTimeout(entry.timer);
    this.workers.clear();
  }
}

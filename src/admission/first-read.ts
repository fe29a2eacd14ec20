/**
 * Whether an admission plugin's configuration has been read once (upstream's WaitForReady of
 * the webhook and policy sources): requests wait for the first read up to 10 s; a failed first
 * read (storage unavailable at start-up) ends every wait at once and is kept, so a write
 * refused for want of the configuration answers that error rather than `not yet ready to handle
 * request`.
 */

/** Upstream's wait for the configuration to be read before admitting (WaitForReady, 10 s). */
export const READY_TIMEOUT_MS = 10_000;

/** The first read of a plugin's configuration and the waits for it. */
export class FirstRead {
  private synced?: Promise<void>;
  private done = false;
  /** Why the first read failed, while it has not succeeded. */
  private failure?: unknown;
  /** Wakes the waits when the first read fails. */
  private readonly failed = new Set<() => void>();

  /** Follow `reads` (the mirrors' first reads): ready once all resolve. */
  begin(reads: Promise<unknown>): void {
    this.synced = reads.then(() => {
      this.done = true;
      this.failure = undefined;
    });
  }

  /** A read failed before the first one succeeded: keep why and end the waits. */
  fail(err: unknown): void {
    if (this.done) return;
    this.failure = err;
    for (const wake of this.failed) wake();
  }

  /** Whether the first read has completed, waiting up to 10 s (false: not begun, failed or too slow). */
  async ready(): Promise<boolean> {
    if (this.done) return true;
    if (!this.synced) return false;
    let timer: NodeJS.Timeout | undefined;
    let wake: () => void = () => undefined;
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), READY_TIMEOUT_MS)));
    const failed = new Promise<false>((r) => (wake = () => r(false)));
    this.failed.add(wake);
    if (this.failure !== undefined) wake();
    try {
      return await Promise.race([this.synced.then(() => true), timeout, failed]);
    } finally {
      clearTimeout(timer);
      this.failed.delete(wake);
    }
  }

  /** Why the first read failed, or undefined (it has succeeded, or not failed yet). */
  failureOfFirstRead(): unknown {
    return this.done ? undefined : this.failure;
  }
}

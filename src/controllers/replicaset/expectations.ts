/**
 * Controller expectations (upstream 1.33 pkg/controller/controller_utils.go
 * ControllerExpectations and UIDTrackingControllerExpectations): after a controller asks for N
 * creations or deletions it waits to observe them through its watch before acting on the same
 * controller again, so a stale cache does not make it create or delete twice. Expectations
 * older than five minutes count as satisfied (ExpectationsTimeout). Deletions are tracked by
 * pod key (`namespace/name`) so each is observed once, whether as a deletionTimestamp update or
 * as the delete itself.
 */

/** Upstream ExpectationsTimeout: after this long (ms) unobserved expectations are dropped. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  /** When they were set (ms since the epoch). */
  readonly timestamp: number;
  /** The pod keys still expected to be deleted. */
  readonly deleting: Set<string>;
}

export class ControllerExpectations {
  private readonly byKey = new Map<string, Expectation>();

  /** `now` returns ms since the epoch (tests move it). */
  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Whether the controller `key` may act: no expectations recorded, all observed, or recorded
   * more than EXPECTATIONS_TIMEOUT_MS ago (upstream SatisfiedExpectations).
   */
  satisfied(key: string): boolean {
    const e = this.byKey.get(key);
    if (!e) return true;
    if (e.add <= 0 && e.del <= 0) return true;
    return this.now() - e.timestamp > EXPECTATIONS_TIMEOUT_MS;
  }

  /** Expect `adds` pod creations for `key`, replacing what was expected (upstream ExpectCreations). */
  expectCreations(key: string, adds: number): void {
    this.byKey.set(key, { add: adds, del: 0, timestamp: this.now(), deleting: new Set() });
  }

  /** Expect the deletion of each of `podKeys` for `key`, replacing what was expected (upstream ExpectDeletions). */
  expectDeletions(key: string, podKeys: readonly string[]): void {
    this.byKey.set(key, { add: 0, del: podKeys.length, timestamp: this.now(), deleting: new Set(podKeys) });
  }

  /** One expected creation seen (or abandoned) for `key` (upstream CreationObserved). */
  creationObserved(key: string): void {
    const e = this.byKey.get(key);
    if (e) e.add--;
  }

  /**
   * The deletion of `podKey` seen (or abandoned) for `key`: lowers the count once per expected
   * pod key, and not for pods that were not expected (upstream UIDTracking DeletionObserved).
   */
  deletionObserved(key: string, podKey: string): void {
    const e = this.byKey.get(key);
    if (!e?.deleting.delete(podKey)) return;
    e.del--;
  }

  /** Forget `key` (its controller was deleted; upstream DeleteExpectations). */
  delete(key: string): void {
    this.byKey.delete(key);
  }

  /** What is still expected for `key` (for tests and logs), or undefined when nothing was recorded. */
  pending(key: string): { readonly add: number; readonly del: number } | undefined {
    const e = this.byKey.get(key);
    return e && { add: e.add, del: e.del };
  }
}

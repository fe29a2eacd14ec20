/**
 * The back-off of deleting (and so replacing) failed daemon pods (upstream 1.33 client-go
 * util/flowcontrol/backoff.go Backoff without jitter, as kube-controller-manager builds it for
 * the DaemonSet controller: initial 1 s, at most 15 min). Keyed by upstream's
 * failedPodsBackoffKey `<ds uid>/<observedGeneration>/<node>`, so a new generation starts
 * afresh. Times are ms since the epoch.
 */

/** Upstream's initial delay (kube-controller-manager startDaemonSetController). */
export const FAILED_PODS_BACKOFF_INITIAL_MS = 1_000;
/** Upstream's longest delay. */
export const FAILED_PODS_BACKOFF_MAX_MS = 15 * 60_000;

interface Entry {
  backoff: number;
  lastUpdate: number;
}

export class FailedPodsBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly initialMs = FAILED_PODS_BACKOFF_INITIAL_MS,
    private readonly maxMs = FAILED_PODS_BACKOFF_MAX_MS,
  ) {}

  /** Upstream failedPodsBackoffKey. */
  static key(dsUid: string, observedGeneration: number, nodeName: string): string {
    return `${dsUid}/${observedGeneration}/${nodeName}`;
  }

  /** The current delay of `key` (0 when none). */
  get(key: string): number {
    return this.entries.get(key)?.backoff ?? 0;
  }

  /**
   * Upstream Next: the first call, or one after the entry expired (2 x max since its last
   * update), sets the initial delay; later calls double it up to max.
   */
  next(key: string, now: number): void {
    const e = this.entries.get(key);
    if (!e || now - e.lastUpdate > 2 * this.maxMs) {
      this.entries.set(key, { backoff: this.initialMs, lastUpdate: now });
      return;
    }
    e.backoff = Math.min(e.backoff * 2, this.maxMs);
    e.lastUpdate = now;
  }

  /** Upstream IsInBackOffSinceUpdate: less than the current delay has passed since the last update. */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const e = this.entries.get(key);
    if (!e || now - e.lastUpdate > 2 * this.maxMs) return false;
    return now - e.lastUpdate < e.backoff;
  }

  /** Upstream GC: forget entries not updated for 2 x max. */
  gc(now: number): void {
    for (const [key, e] of this.entries) if (now - e.lastUpdate > 2 * this.maxMs) this.entries.delete(key);
  }
}

/**
 * Whether etcd can still be reached, for the watches of one store. An etcd watch stream gives
 * no sign when etcd stops answering (a paused or partitioned cluster keeps the TCP connection
 * open; the etcd3 client reconnects a failed stream forever), so a watch would stay open in
 * silence. While at least one watch is open, a cheap probe (a linearizable read of one key,
 * retried across members within its own deadline) runs every `intervalMs`; after
 * `failuresToDown` consecutive failures every subscribed watch is told, and ends with
 * KvError 'Unavailable'. Upstream gets the same effect from gRPC keepalive and
 * clientv3.WithRequireLeader on its watches (k8s.io/apiserver pkg/storage/etcd3/watcher.go).
 * With the defaults a watch ends within 4 + 2 x 3 = 10 s of etcd becoming unreachable.
 */
import { KvError } from '../types.js';

export interface LivenessOptions {
  /** Milliseconds between probes while they succeed (default 4000). */
  readonly intervalMs?: number;
  /** Consecutive failed probes that mean etcd is unreachable (default 2); a failed probe is retried at once. */
  readonly failuresToDown?: number;
}

/** Shared probe loop; it runs only while someone is subscribed. */
export class EtcdLiveness {
  private readonly subscribers = new Set<(err: KvError) => void>();
  private readonly intervalMs: number;
  private readonly failuresToDown: number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;

  /** `probe` resolves when etcd answered and rejects (within its own deadline) when not. */
  constructor(
    private readonly probe: () => Promise<unknown>,
    options: LivenessOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 4000;
    this.failuresToDown = options.failuresToDown ?? 2;
  }

  /** Call `onDown` once if etcd is found unreachable; returns the unsubscribe function. */
  subscribe(onDown: (err: KvError) => void): () => void {
    this.subscribers.add(onDown);
    if (!this.running) this.schedule(this.intervalMs);
    return () => {
      this.subscribers.delete(onDown);
    };
  }

  /** Stop probing (the store is closing). */
  close(): void {
    clearTimeout(this.timer);
    this.subscribers.clear();
  }

  private schedule(delayMs: number): void {
    this.running = true;
    this.timer = setTimeout(() => void this.loop(), delayMs);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    let failures = 0;
    let lastError: unknown;
    while (this.subscribers.size > 0 && failures < this.failuresToDown) {
      try {
        await this.probe();
        failures = 0;
        break;
      } catch (err) {
        failures++;
        lastError = err;
      }
    }
    if (failures >= this.failuresToDown) {
      const message = (lastError instanceof Error ? lastError.message : String(lastError)).replace(
        /^etcd unavailable: /,
        '',
      );
      const err = new KvError(
        'Unavailable',
        `etcd unavailable: ${failures} consecutive liveness probes failed, last: ${message}`,
      );
      const down = [...this.subscribers];
      this.subscribers.clear();
      for (const notify of down) notify(err);
    }
    if (this.subscribers.size > 0) this.schedule(this.intervalMs);
    else this.running = false;
  }
}

/**
 * Leader election among replicas (the scheme of client-go's leaderelection, on our key-value
 * contract): a record `{holderIdentity, renewTime, leaseDurationSeconds}` at one key, taken
 * when absent or expired and renewed by compare-and-swap on its ModRevision. The leader runs
 * the controllers; it stops them as soon as a renewal fails, and another replica takes over
 * once the lease has expired. Replicas' clocks are assumed roughly in step (as upstream).
 */
import type { Logger } from 'pino';
import type { KeyValue, KvStore } from '../storage/kv/types.js';

export interface LeaderElectionOptions {
  /** Seconds a lease lasts without renewal (default 15, as upstream). */
  readonly leaseDurationSeconds?: number;
  /** Seconds between renewals and attempts (default 2). */
  readonly retryPeriodSeconds?: number;
}

interface LeaderRecord {
  holderIdentity: string;
  renewTime: number;
  leaseDurationSeconds: number;
}

export class LeaderElector {
  private timer: NodeJS.Timeout | undefined;
  private stopLeading: (() => void) | undefined;
  private held: KeyValue | null = null;
  private readonly leaseMs: number;
  private readonly retryMs: number;

  /**
   * @param key the election key (e.g. `/registry/leases/kube-system/ck-apiserver-controllers`)
   * @param identity this replica's unique name
   * @param onStartedLeading starts the controllers; returns how to stop them
   */
  constructor(
    private readonly kv: KvStore,
    private readonly key: string,
    readonly identity: string,
    private readonly onStartedLeading: () => () => void,
    private readonly logger: Logger,
    options: LeaderElectionOptions = {},
  ) {
    this.leaseMs = (options.leaseDurationSeconds ?? 15) * 1000;
    this.retryMs = (options.retryPeriodSeconds ?? 2) * 1000;
  }

  /** True while this replica leads. */
  get leading(): boolean {
    return this.stopLeading !== undefined;
  }

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.retryMs);
    this.timer.unref();
  }

  /** Stop the controllers and give the lease up so another replica takes over at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    const held = this.held;
    this.lose();
    if (held) await this.kv.delete(this.key, held.modRevision).catch(() => undefined);
  }

  /** One attempt to acquire or renew. */
  async tick(): Promise<void> {
    try {
      const current = (await this.kv.range({ start: this.key })).kvs[0] ?? null;
      const record = current ? (JSON.parse(current.value) as LeaderRecord) : null;
      const mine = record?.holderIdentity === this.identity;
      const expired = !record || record.renewTime + record.leaseDurationSeconds * 1000 < Date.now();
      if (!mine && !expired) {
        this.lose();
        return;
      }
      const value = JSON.stringify({ holderIdentity: this.identity, renewTime: Date.now(), leaseDurationSeconds: this.leaseMs / 1000 });
      const res = current ? await this.kv.update(this.key, value, current.modRevision) : await this.kv.create(this.key, value);
      if (!res.succeeded) {
        this.lose();
        return;
      }
      this.held = { key: this.key, value, createRevision: current?.createRevision ?? res.revision, modRevision: res.revision, version: 0, lease: 0 };
      if (!this.stopLeading) {
        this.logger.info({ identity: this.identity }, 'became leader: starting controllers');
        this.stopLeading = this.onStartedLeading();
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'leader election attempt failed');
      // Without a successful renewal we cannot be sure we still lead once the lease runs out.
      if (this.held && JSON.parse(this.held.value).renewTime + this.leaseMs < Date.now()) this.lose();
    }
  }

  private lose(): void {
    this.held = null;
    if (this.stopLeading) {
      this.logger.info({ identity: this.identity }, 'lost leadership: stopping controllers');
      this.stopLeading();
      this.stopLeading = undefined;
    }
  }
}

/**
 * Leader election among replicas (the scheme of client-go's leaderelection, on our key-value
 * contract): a record `{holderIdentity, renewTime, leaseDurationSeconds}` at one key, taken
 * when absent or expired and renewed by compare-and-swap on its ModRevision every retry
 * period. The leader stops its controllers once it has not renewed for the renew deadline
 * (shorter than the lease, so two never lead at once); a candidate tries again at the moment
 * the holder's lease runs out, so a dead leader is replaced within the lease duration of its
 * last renewal. Replicas' clocks are assumed roughly in step (as upstream).
 */
import type { Logger } from 'pino';
import type { KeyValue, KvStore } from '../storage/kv/types.js';
import { errorMessage } from '../api/error-message.js';
import { recordOf } from '../api/json.js';

export interface LeaderElectionOptions {
  /** Seconds a lease lasts without renewal (default 15, as upstream). */
  readonly leaseDurationSeconds?: number;
  /** Seconds the leader keeps leading without a successful renewal (default 10, as upstream). */
  readonly renewDeadlineSeconds?: number;
  /** Seconds between renewals and attempts (default 2, as upstream). */
  readonly retryPeriodSeconds?: number;
}

interface LeaderRecord {
  holderIdentity: string;
  renewTime: number;
  leaseDurationSeconds: number;
}

export class LeaderElector {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private stopLeading: (() => void) | undefined;
  private held: KeyValue | null = null;
  /** When this replica last renewed (ms since the epoch). */
  private renewedAt = 0;
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
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
    this.renewDeadlineMs = Math.min(this.leaseMs, (options.renewDeadlineSeconds ?? 10) * 1000);
    this.retryMs = (options.retryPeriodSeconds ?? 2) * 1000;
  }

  /** True while this replica leads. */
  get leading(): boolean {
    return this.stopLeading !== undefined;
  }

  /** Try at once, then every retry period (or when the holder's lease runs out, if sooner). */
  start(): void {
    this.stopped = false;
    const loop = async () => {
      const wait = await this.tick();
      if (this.stopped) return;
      this.timer = setTimeout(() => void loop(), wait);
      this.timer.unref();
    };
    void loop();
  }

  /** Stop the controllers and give the lease up so another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const held = this.held;
    this.lose();
    if (held) await this.kv.delete(this.key, held.modRevision).catch(() => undefined);
  }

  /**
   * One attempt to acquire or renew. Returns the milliseconds to wait before the next one: the
   * retry period, or less when another holder's lease runs out sooner.
   */
  async tick(): Promise<number> {
    try {
      const current = (await this.kv.range({ start: this.key })).kvs[0] ?? null;
      const record = current ? parseRecord(current.value) : null;
      const mine = record?.holderIdentity === this.identity;
      const expiresAt = record ? record.renewTime + record.leaseDurationSeconds * 1000 : 0;
      if (!mine && expiresAt >= Date.now()) {
        this.lose();
        return Math.max(10, Math.min(this.retryMs, expiresAt - Date.now() + 10));
      }
      const value = JSON.stringify({
        holderIdentity: this.identity,
        renewTime: Date.now(),
        leaseDurationSeconds: this.leaseMs / 1000,
      });
      const renewTime = Date.now();
      const res = current
        ? await this.kv.update(this.key, value, current.modRevision)
        : await this.kv.create(this.key, value);
      if (!res.succeeded) {
        this.lose();
        return this.retryMs;
      }
      this.held = {
        key: this.key,
        value,
        createRevision: current?.createRevision ?? res.revision,
        modRevision: res.revision,
        version: 0,
        lease: 0,
      };
      this.renewedAt = renewTime;
      if (!this.stopLeading && !this.stopped) {
        this.logger.info({ identity: this.identity }, 'became leader: starting controllers');
        this.stopLeading = this.onStartedLeading();
      }
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'leader election attempt failed');
      // Without a renewal for the renew deadline another replica may soon take over: step down.
      if (this.held && this.renewedAt + this.renewDeadlineMs < Date.now()) this.lose();
    }
    return this.retryMs;
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

/** The record stored at the election key, or null when it is not one (then it is taken over). */
function parseRecord(value: string): LeaderRecord | null {
  try {
    const { holderIdentity, renewTime, leaseDurationSeconds } = recordOf(JSON.parse(value));
    return typeof holderIdentity === 'string' &&
      typeof renewTime === 'number' &&
      typeof leaseDurationSeconds === 'number'
      ? { holderIdentity, renewTime, leaseDurationSeconds }
      : null;
  } catch {
    return null;
  }
}

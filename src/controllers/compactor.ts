/**
 * etcd history compaction, as upstream (k8s.io/apiserver pkg/storage/etcd3/compact.go): every
 * interval each replica tries a compare-and-swap on the bookkeeping key `compact_rev_key` (at
 * the etcd root, outside the prefix). The key's version is a logical clock: the replica that
 * moves it from the version it last saw wins the period and compacts to the revision it
 * recorded one period earlier, so history survives one to two intervals and N replicas compact
 * once per interval, not N times. Losers adopt the winner's clock and try again next period.
 */
import type { Logger } from 'pino';
import type { KvStore } from '../storage/kv/types.js';
import { errorMessage } from '../api/error-message.js';

export const COMPACT_REV_KEY = 'compact_rev_key';

export class Compactor {
  /** The version of compact_rev_key this replica last saw (the logical clock). */
  private clock = 0;
  /** The store revision recorded at this replica's last successful tick. */
  private lastRevision = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly kv: KvStore,
    private readonly logger: Logger,
    /** Seconds between ticks; 0 disables. */
    private readonly intervalSeconds: number,
  ) {}

  start(): void {
    if (this.intervalSeconds <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * One period. Returns the revision compacted to, or 0 when this replica did not compact
   * (it lost the race, or it is its first winning tick). Never throws: failures are logged.
   */
  async tick(): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    try {
      const current = (await this.kv.range({ start: COMPACT_REV_KEY })).kvs[0];
      const version = current?.version ?? 0;
      if (version !== this.clock) {
        // Another replica moved the clock: follow it and wait for the next period.
        this.clock = version;
        this.lastRevision = 0;
        return 0;
      }
      const revision = await this.kv.currentRevision();
      const res = current
        ? await this.kv.update(COMPACT_REV_KEY, String(revision), current.modRevision)
        : await this.kv.create(COMPACT_REV_KEY, String(revision));
      if (!res.succeeded) {
        this.clock = res.current?.version ?? 0;
        this.lastRevision = 0;
        return 0;
      }
      this.clock = version + 1;
      const target = this.lastRevision;
      this.lastRevision = res.revision;
      if (target <= 0) return 0;
      await this.kv.compact(target);
      this.logger.info({ revision: target }, 'compacted etcd history');
      return target;
    } catch (err) {
      const message = errorMessage(err);
      if (!/compacted/.test(message)) this.logger.warn({ err: message }, 'compaction failed');
      return 0;
    } finally {
      this.running = false;
    }
  }
}

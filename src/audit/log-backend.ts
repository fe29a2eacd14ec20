/**
 * The audit log backend (upstream k8s.io/apiserver plugin/pkg/audit/log): one line per event,
 * `json` (the audit.k8s.io/v1 Event) or `legacy` (upstream's one-line text), to a file rotated
 * as lumberjack does (rotating-file.ts) or to standard output (`-`).
 *
 * Unlike upstream's default `blocking` mode, a request never waits for the disk: events are
 * encoded at once (so later changes to the event do not leak into an earlier stage's line) and
 * queued; the queue is written in one `writev` per turn of the event loop. Up to
 * `bufferSize` events wait (upstream's batch buffer, 10000); beyond that new events are
 * dropped and reported, as upstream's buffered backend does.
 */
import type { Writable } from 'node:stream';
import { eventJson, eventString, type AuditEvent, type AuditSink } from './event.js';
import { RotatingFile } from './rotating-file.js';

/** `--audit-log-format` values. */
export const LOG_FORMATS = ['json', 'legacy'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogBackendOptions {
  /** The file, or `-` for standard output. */
  readonly path: string;
  readonly format: LogFormat;
  /** Bytes before rotation (0 or absent = lumberjack's 100 MiB). */
  readonly maxSizeBytes?: number;
  /** Rotated files kept (0 or absent = all). */
  readonly maxBackups?: number;
  /** Days rotated files are kept (0 or absent = forever). */
  readonly maxAgeDays?: number;
  /** Events that may wait to be written (default 10000). */
  readonly bufferSize?: number;
  /** Told of failed writes and dropped events (upstream HandlePluginError); default: ignored. */
  readonly onError?: (err: Error, events: number) => void;
  /** Where `-` writes (default process.stdout; tests). */
  readonly stdout?: Writable;
  /** The clock for rotated names (tests). */
  readonly now?: () => Date;
}

/** The `log` audit backend. */
export class LogBackend implements AuditSink {
  private pending: Buffer[] = [];
  private draining?: Promise<void>;
  private closed = false;
  private readonly file?: RotatingFile;
  private readonly bufferSize: number;

  constructor(private readonly opts: LogBackendOptions) {
    this.bufferSize = opts.bufferSize ?? 10_000;
    if (opts.path !== '-') {
      this.file = new RotatingFile({ filename: opts.path, maxSizeBytes: opts.maxSizeBytes ?? 0, maxBackups: opts.maxBackups ?? 0, maxAgeDays: opts.maxAgeDays ?? 0, now: opts.now });
    }
  }

  /** Create or open the file now. Throws when it cannot be (start-up then fails). */
  async open(): Promise<void> {
    await this.file?.open();
  }

  /** Queue one event's line. Never throws; after close() events are dropped. */
  processEvent(event: AuditEvent): void {
    if (this.closed) return;
    if (this.pending.length >= this.bufferSize) {
      this.opts.onError?.(new Error('audit buffer queue blocked'), 1);
      return;
    }
    this.pending.push(Buffer.from(this.opts.format === 'legacy' ? eventString(event) + '\n' : eventJson(event)));
    this.draining ??= new Promise<void>((resolve) => setImmediate(() => void this.drain().then(resolve)));
  }

  /** Resolves once every event queued so far is written (or has failed). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Write what is queued (and what this turn adds), then close the file. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.flush();
    this.closed = true;
    await this.file?.close();
  }

  private async drain(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.write(batch);
      } catch (err) {
        this.opts.onError?.(err as Error, batch.length);
      }
    }
    this.draining = undefined;
  }

  private async write(lines: Buffer[]): Promise<void> {
    if (this.file) return this.file.writeLines(lines);
    const out = this.opts.stdout ?? process.stdout;
    await new Promise<void>((resolve, reject) => out.write(Buffer.concat(lines), (err) => (err ? reject(err) : resolve())));
  }
}

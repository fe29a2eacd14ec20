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
 *
 * A failed write (a full disk, EIO, a closed or stalled standard output) never stops the
 * server: its events are dropped and counted. The first failure is reported at once; later
 * ones at most once a minute, with the number of events lost since the previous report.
 * Standard output is the process's one OutputSink, shared with the log: never waited for, at
 * most 4 MiB held for a reader that stopped reading.
 */
import type { Writable } from 'node:stream';
import { OutputSink, stdoutSink } from '../observability/output-sink.js';
import { eventJson, eventString, type AuditEvent, type AuditSink } from './event.js';
import { RotatingFile, WriteTooLargeError } from './rotating-file.js';
import { asError } from '../api/error-message.js';

/** Least time between two reports of failed writes. */
const REPORT_INTERVAL_MS = 60_000;

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
  /**
   * Told of failed writes and dropped events (upstream HandlePluginError), at most once a
   * minute with the events lost since the last call; default: ignored.
   */
  readonly onError?: (err: Error, events: number) => void;
  /** Where `-` writes (default: standard output through the process's one OutputSink; tests). */
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
  private readonly stdout?: OutputSink;
  private readonly bufferSize: number;
  /** Events lost since the last report, the last error, and when it was reported. */
  private unreported = 0;
  private lastError?: Error;
  private lastReport = -Infinity;

  constructor(private readonly opts: LogBackendOptions) {
    this.bufferSize = opts.bufferSize ?? 10_000;
    if (opts.path === '-') {
      const out = opts.stdout;
      this.stdout = out ? new OutputSink({ stream: () => out }) : stdoutSink();
    } else {
      this.file = new RotatingFile({
        filename: opts.path,
        maxSizeBytes: opts.maxSizeBytes ?? 0,
        maxBackups: opts.maxBackups ?? 0,
        maxAgeDays: opts.maxAgeDays ?? 0,
        now: opts.now,
      });
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
      this.failed(new Error('audit buffer queue blocked'), 1);
      return;
    }
    this.pending.push(Buffer.from(this.opts.format === 'legacy' ? eventString(event) + '\n' : eventJson(event)));
    this.draining ??= new Promise<void>((resolve) => setImmediate(() => void this.drain().then(resolve)));
  }

  /** Resolves once every event queued so far is written (or has failed); for `-`, handed to standard output. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Write what is queued (and what this turn adds), then close the file. */
  async close(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.flush();
    this.closed = true;
    if (this.unreported) this.report();
    await this.file?.close().catch((err: Error) => this.opts.onError?.(err, 0));
  }

  private async drain(): Promise<void> {
    while (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.write(batch);
      } catch (err) {
        // A line too large for the file costs that line alone (lumberjack), reported each time.
        if (err instanceof WriteTooLargeError) this.opts.onError?.(err, 1);
        else this.failed(asError(err), batch.length);
      }
    }
    this.draining = undefined;
  }

  /** Count `events` lost to `err`; report now unless a report went out within the interval. */
  private failed(err: Error, events: number): void {
    this.unreported += events;
    this.lastError = err;
    if (Date.now() - this.lastReport >= REPORT_INTERVAL_MS) this.report();
  }

  private report(): void {
    this.lastReport = Date.now();
    const events = this.unreported;
    this.unreported = 0;
    this.opts.onError?.(this.lastError!, events);
  }

  private async write(lines: Buffer[]): Promise<void> {
    if (this.file) return this.file.writeLines(lines);
    // Handed over, not waited for: a reader that stopped reading must not hold up close().
    this.stdout!.write(Buffer.concat(lines), (err) => err && this.failed(err, lines.length));
  }
}

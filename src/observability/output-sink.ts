/**
 * An output (standard output, for the log and for `--audit-log-path=-`) that cannot stop the
 * server: a write that fails is dropped and its caller told, never thrown, never retried in a
 * loop, never waited for. Upstream's klog likewise ignores a failed write to its output, and
 * lumberjack's callers only count it.
 *
 * How a descriptor is written depends on what it is (decided once, by fstat):
 *  - a file, a character device or a terminal: `writeSync`, which a full disk (ENOSPC), EIO or
 *    EBADF fails at once; the line is dropped, and the next write tries again, so the output
 *    resumes when space is freed.
 *  - a pipe or a socket (a container runtime's log pipe): the Node stream for it (for fd 1,
 *    `process.stdout`, which makes the pipe non-blocking and queues in memory), so a reader that
 *    stops reading never blocks the event loop; at most `maxQueuedBytes` wait, and writes beyond
 *    that are dropped (EAGAIN). A closed reader (EPIPE) drops every write after it.
 */
import { fstatSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { asError } from '../api/error-message.js';

/** Bytes a stalled pipe may hold queued in this process before writes are dropped. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

/** Told once per write: with nothing when it was written, with the error when it was dropped. */
export type WriteDone = (err?: Error | null) => void;

export interface OutputSinkOptions {
  /** The descriptor to write; without one, `stream` is always used. */
  readonly fd?: number;
  /** The stream for a pipe or socket (fd 1: process.stdout); created on first need. */
  readonly stream: () => Writable;
  readonly maxQueuedBytes?: number;
}

const stalled = (queued: number) =>
  Object.assign(new Error(`output stalled: ${queued} bytes waiting for the reader`), { code: 'EAGAIN' });

/** Write `chunk` whole to `fd`, going on after a short write; throws what writeSync throws. */
function writeAllSync(fd: number, chunk: string | Uint8Array): void {
  let rest: Uint8Array;
  if (typeof chunk === 'string') {
    const n = writeSync(fd, chunk);
    if (n >= Buffer.byteLength(chunk)) return;
    rest = Buffer.from(chunk).subarray(n);
  } else rest = chunk;
  while (rest.length) {
    const n = writeSync(fd, rest);
    if (n === 0) throw Object.assign(new Error('write wrote nothing'), { code: 'EIO' });
    rest = rest.subarray(n);
  }
}

/** One output; see the module comment. */
export class OutputSink {
  private mode?: 'sync' | 'stream';
  private stream?: Writable;
  private streamError?: Error;
  private readonly maxQueuedBytes: number;

  constructor(private readonly opts: OutputSinkOptions) {
    this.maxQueuedBytes = opts.maxQueuedBytes ?? MAX_QUEUED_BYTES;
  }

  /**
   * Write `chunk` (whole lines) or drop it. `done` is called exactly once, at once or when a
   * pipe has taken the data; with an error when the chunk was dropped. Never throws.
   */
  write(chunk: string | Uint8Array, done?: WriteDone): void {
    this.mode ??= this.probe();
    if (this.mode === 'sync') {
      try {
        writeAllSync(this.opts.fd!, chunk);
      } catch (err) {
        done?.(asError(err));
        return;
      }
      done?.();
      return;
    }
    const stream = this.openStream();
    if (stream.destroyed || !stream.writable)
      return done?.(this.streamError ?? Object.assign(new Error('output closed'), { code: 'EPIPE' }));
    if (stream.writableLength >= this.maxQueuedBytes) return done?.(stalled(stream.writableLength));
    stream.write(chunk, done);
  }

  private probe(): 'sync' | 'stream' {
    if (this.opts.fd === undefined) return 'stream';
    try {
      const info = fstatSync(this.opts.fd);
      return info.isFIFO() || info.isSocket() ? 'stream' : 'sync';
    } catch {
      return 'sync'; // a closed descriptor: each write fails (EBADF) and is dropped
    }
  }

  private openStream(): Writable {
    if (!this.stream) {
      this.stream = this.opts.stream();
      // Without a listener an EPIPE would be an uncaught exception; the write's callback has it.
      this.stream.on('error', (err) => (this.streamError = err));
    }
    return this.stream;
  }
}

let stdout: OutputSink | undefined;
/** The process's one sink for standard output (the log, and the audit log's `-`). */
export function stdoutSink(): OutputSink {
  stdout ??= new OutputSink({ fd: 1, stream: () => process.stdout });
  return stdout;
}

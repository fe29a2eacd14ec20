/**
 * The pino JSON logger: one line per event on stdout, with `level` as a name ("info", "debug")
 * rather than pino's number, and an ISO-8601 `time`.
 *
 * The server keeps serving when its log output fails (a full disk, a closed or stalled reader):
 * lines that cannot be written are dropped and counted (`ck_apiserver_log_lines_dropped_total`,
 * and a note on stderr at most once a minute), as klog ignores a failed write. pino's own
 * destination would instead throw ENOSPC or EIO out of the event loop, ending the process, and
 * retry EAGAIN by sleeping on the event loop.
 */
import { pino, type Logger } from 'pino';
import { OutputSink, stdoutSink } from './output-sink.js';
import { errorCode } from '../api/error-message.js';

/** Least time between two notes on stderr about dropped lines. */
const NOTICE_INTERVAL_MS = 60_000;

let dropped = 0;
let unnoticed = 0;
let lastNotice = -Infinity;
let stderr: OutputSink | undefined;

/** Log lines this process has dropped because its output failed. */
export function droppedLogLines(): number {
  return dropped;
}

function lineWritten(err?: Error | null): void {
  if (!err) return;
  dropped++;
  unnoticed++;
  const now = Date.now();
  if (now - lastNotice < NOTICE_INTERVAL_MS) return;
  lastNotice = now;
  const code = errorCode(err);
  const why = code && !err.message.startsWith(code) ? `${code}: ${err.message}` : err.message;
  stderr ??= new OutputSink({ fd: 2, stream: () => process.stderr });
  stderr.write(`ck-apiserver: log output failed (${why}); ${unnoticed} line(s) dropped since the last note\n`);
  unnoticed = 0;
}

/** Where pino writes: the shared standard output, failures counted and dropped. */
const destination = { write: (line: string) => stdoutSink().write(line, lineWritten) };

/** A logger at `level` ('silent' disables output). */
export function createLogger(level: string = 'info'): Logger {
  return pino(
    {
      level,
      base: { component: 'ck-apiserver' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

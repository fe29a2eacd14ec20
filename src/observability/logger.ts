/**
 * The pino JSON logger: one line per event on stdout, with `level` as a name ("info", "debug")
 * rather than pino's number, and an ISO-8601 `time`.
 */
import { pino, type Logger } from 'pino';

/** A logger at `level` ('silent' disables output). */
export function createLogger(level: string = 'info'): Logger {
  return pino({ level, base: { component: 'ck-apiserver' }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } });
}

/** The pino JSON logger (one line per event on stdout). */
import { pino, type Logger } from 'pino';

/** A logger at `level` ('silent' disables output). */
export function createLogger(level: string = 'info'): Logger {
  return pino({ level, base: { component: 'ck-apiserver' }, timestamp: pino.stdTimeFunctions.isoTime });
}

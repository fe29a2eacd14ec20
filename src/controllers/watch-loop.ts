/**
 * The loops every in-server controller runs: a watch of all objects of a store (starting with
 * ADDED for what exists), handing each event to the controller and starting over a second
 * after the stream fails; and a resync that scans everything at once and then periodically.
 * Both run until the signal aborts.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import type { ApiObject } from '../api/object.js';
import type { GenericStore } from '../registry/generic-store.js';
import { buildPredicate } from '../registry/predicate.js';
import type { WatchEvent } from '../storage/types.js';

export async function watchLoop<T extends ApiObject>(
  store: GenericStore<T>,
  signal: AbortSignal,
  onEvent: (ev: WatchEvent<T>) => void,
  logger: Logger,
): Promise<void> {
  const all = buildPredicate(store.def);
  while (!signal.aborted) {
    try {
      for await (const ev of store.watch('', '', { predicate: all, resourceVersion: '', signal })) onEvent(ev);
    } catch (err) {
      if (!signal.aborted)
        logger.debug({ resource: store.def.plural, err: errorMessage(err) }, 'controller watch restarting');
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Run `resync` at once (a new leader scans what changed while no leader ran, as upstream's
 * informers relist at start) and then every `periodMs`, until `signal` aborts.
 */
export function resyncLoop(signal: AbortSignal, periodMs: number, resync: () => Promise<void>): void {
  void resync();
  const timer = setInterval(() => void resync(), periodMs);
  signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}

/**
 * The watch loop every in-server controller runs: watch all objects of a store (starting with
 * ADDED for what exists), hand each event to the controller, and start over a second after
 * the stream fails, until the signal aborts.
 */
import type { Logger } from 'pino';
import type { GenericStore } from '../registry/generic-store.js';
import { buildPredicate } from '../registry/predicate.js';
import type { WatchEvent } from '../storage/object-watch.js';

export async function watchLoop(store: GenericStore, signal: AbortSignal, onEvent: (ev: WatchEvent) => void, logger: Logger): Promise<void> {
  const all = buildPredicate(store.def);
  while (!signal.aborted) {
    try {
      for await (const ev of store.watch('', '', all, '', signal)) onEvent(ev);
    } catch (err) {
      if (!signal.aborted) logger.debug({ resource: store.def.plural, err: (err as Error).message }, 'controller watch restarting');
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * A store's objects kept in memory, as an informer keeps them: list, then watch from the
 * list's resourceVersion, and list again after the watch fails (a second later). `onReset`
 * receives every object of a (re)list, `onEvent` each later change. Runs until `signal` aborts.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../api/object.js';
import type { GenericStore } from './generic-store.js';
import { buildPredicate } from './predicate.js';
import type { WatchEvent } from '../storage/types.js';
import { errorMessage } from '../api/error-message.js';

export interface MirrorHandlers<T extends ApiObject> {
  onReset(objects: readonly T[]): void;
  onEvent(ev: WatchEvent<T>): void;
  /** A list or watch failed (it is retried a second later). */
  onError?(err: unknown): void;
}

/** Mirror `store`; resolves the returned promise once the first list has been handed over. */
export function mirror<T extends ApiObject>(
  store: GenericStore<T>,
  handlers: MirrorHandlers<T>,
  signal: AbortSignal,
  logger: Logger,
): Promise<void> {
  const all = buildPredicate(store.def);
  let synced: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (synced = resolve));
  void (async () => {
    while (!signal.aborted) {
      try {
        const list = await store.list('', { predicate: all });
        handlers.onReset(list.items);
        synced();
        const rv = list.metadata.resourceVersion ?? '';
        for await (const ev of store.watch('', '', {
          predicate: all,
          resourceVersion: rv,
          sendInitialEvents: false,
          signal,
        }))
          handlers.onEvent(ev);
      } catch (err) {
        if (!signal.aborted) {
          logger.debug({ resource: store.def.plural, err: errorMessage(err) }, 'mirror relisting');
          handlers.onError?.(err);
        }
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return first;
}

/**
 * A store's objects kept in memory, as an informer keeps them: list, then watch from the
 * list's resourceVersion, and list again after the watch fails (a second later). `onReset`
 * receives every object of a (re)list, `onEvent` each later change. Runs until `signal` aborts.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { WatchEvent } from '../../storage/types.js';

export interface MirrorHandlers {
  onReset(objects: readonly ApiObject[]): void;
  onEvent(ev: WatchEvent): void;
}

/** Mirror `store`; resolves the returned promise once the first list has been handed over. */
export function mirror(store: GenericStore, handlers: MirrorHandlers, signal: AbortSignal, logger: Logger): Promise<void> {
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
        for await (const ev of store.watch('', '', { predicate: all, resourceVersion: rv, sendInitialEvents: false, signal })) handlers.onEvent(ev);
      } catch (err) {
        if (!signal.aborted) logger.debug({ resource: store.def.plural, err: (err as Error).message }, 'policy mirror relisting');
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return first;
}

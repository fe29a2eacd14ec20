/**
 * A watch whose events are mapped one to one (`map`) and whose failures are translated
 * (`mapError`), without a generator in between: each event costs one `then`, and `return()`
 * reaches the source at once (a generator would wait for its pending `next()` first).
 */
import type { WatchEvent, WatchIterator } from './object-watch.js';

/**
 * `source` with every event passed through `map` and every error the iteration throws passed
 * through `mapError` (which returns the error to throw instead).
 */
export function mapWatch(source: AsyncIterable<WatchEvent>, map: (ev: WatchEvent) => WatchEvent, mapError: (err: unknown) => unknown): AsyncIterable<WatchEvent> {
  return {
    [Symbol.asyncIterator](): WatchIterator {
      const it: WatchIterator = source[Symbol.asyncIterator]();
      const mapped = (r: IteratorResult<WatchEvent>): IteratorResult<WatchEvent> => (r.done ? r : { done: false, value: map(r.value) });
      const failed = (err: unknown): never => {
        throw mapError(err);
      };
      return {
        next: () => it.next().then(mapped, failed),
        poll: () => {
          const ev = it.poll?.();
          return ev && map(ev);
        },
        whenReady: (wake) => it.whenReady?.(wake) ?? false,
        return: async () => (await it.return?.()) ?? { done: true, value: undefined },
      };
    },
  };
}

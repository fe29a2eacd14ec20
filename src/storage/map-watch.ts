/**
 * A watch whose events are mapped one to one (`map`) and whose failures are translated
 * (`mapError`), without a generator in between: each event costs one `then`, and `return()`
 * reaches the source at once (a generator would wait for its pending `next()` first).
 */
import type { ApiObject } from '../api/object.js';
import type { WatchEvent, WatchIterator } from './types.js';

/**
 * `source` with every event passed through `map` and every error the iteration throws passed
 * through `mapError` (which returns the error to throw instead).
 */
export function mapWatch<T extends ApiObject>(
  source: AsyncIterable<WatchEvent>,
  map: (ev: WatchEvent) => WatchEvent<T>,
  mapError: (err: unknown) => unknown,
): AsyncIterable<WatchEvent<T>> {
  return {
    [Symbol.asyncIterator]: (): WatchIterator<T> => new MappedIterator(source[Symbol.asyncIterator](), map, mapError),
  };
}

/**
 * The iterator of a mapped watch: one small object per watch (methods on the prototype, no
 * closures), as a watch may stay open for an hour and thousands may be open.
 */
class MappedIterator<T extends ApiObject> implements WatchIterator<T> {
  constructor(
    private readonly it: WatchIterator,
    private readonly map: (ev: WatchEvent) => WatchEvent<T>,
    private readonly mapError: (err: unknown) => unknown,
  ) {}

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    return this.it.next().then(
      (r) => (r.done ? r : { done: false, value: this.map(r.value) }),
      (err: unknown) => {
        throw this.mapError(err);
      },
    );
  }

  poll(): WatchEvent<T> | undefined {
    const ev = this.it.poll?.();
    return ev && this.map(ev);
  }

  whenReady(wake: () => void): boolean {
    return this.it.whenReady?.(wake) ?? false;
  }

  async return(): Promise<IteratorResult<WatchEvent<T>>> {
    const r = await this.it.return?.();
    if (!r) return { done: true, value: undefined };
    return r.done ? r : { done: false, value: this.map(r.value) };
  }
}

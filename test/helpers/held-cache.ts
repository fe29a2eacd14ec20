/**
 * Holding an in-process server's watch cache behind storage, as a cache whose watch delivers
 * late: while held, every change and every progress its reflector applies
 * (`WatchCache.apply` and `advance`) is queued instead, so the cache's objects and revision
 * stay where they were while storage moves on; released, the queue is applied in order and
 * the cache catches up. Changes applied on release are not offered to the cache's watchers
 * (use it for reads only).
 */
import type { Cacher } from '../../src/storage/cacher/cacher.js';
import { WatchCache } from '../../src/storage/cacher/watch-cache.js';
import type { RunningServer } from '../../src/server.js';

export interface HeldCache {
  /** Whether the cache is held now. */
  readonly held: boolean;
  /** Queue what the cache is told from now on. */
  hold(): void;
  /** Apply what was queued, in order, and let the cache follow storage again. */
  release(): void;
}

/** The watch cache of `resource` (`configmaps`) of an in-process server; throws when it has none. */
export function cacherOf(running: RunningServer, resource: string): Cacher {
  const cacher = running.deps.watchCache?.cachers.find((c) => c.opts.resource === resource);
  if (!cacher) throw new Error(`no watch cache for ${resource}`);
  return cacher;
}

/** A hold on `cache` (released at first). */
export function holdable(cache: WatchCache): HeldCache {
  const queue: (() => void)[] = [];
  let held = false;
  return {
    get held() {
      return held;
    },
    hold() {
      if (held) return;
      held = true;
      cache.apply = (...args) => {
        queue.push(() => WatchCache.prototype.apply.call(cache, ...args));
        return null;
      };
      cache.advance = (revision) => {
        queue.push(() => WatchCache.prototype.advance.call(cache, revision));
      };
    },
    release() {
      if (!held) return;
      held = false;
      cache.apply = WatchCache.prototype.apply;
      cache.advance = WatchCache.prototype.advance;
      for (const step of queue.splice(0)) step();
    },
  };
}

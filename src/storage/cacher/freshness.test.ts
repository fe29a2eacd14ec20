import { describe, expect, it } from 'vitest';
import { progressRequestsSafe } from '../kv/etcd/etcd-store.js';
import type { KvStore, WatchProgressMode } from '../kv/types.js';
import { readConsistent } from './freshness.js';
import { WatchCache } from './watch-cache.js';

/** The two calls readConsistent makes of storage: its current revision, and how progress is learnt. */
function storeAt(revision: () => number, mode: WatchProgressMode): KvStore {
  return { currentRevision: async () => revision(), watchProgress: async () => mode } as Pick<
    KvStore,
    'currentRevision' | 'watchProgress'
  > as KvStore;
}

function cacheAt(revision: number): WatchCache {
  const cache = new WatchCache();
  cache.replace([], revision);
  return cache;
}

describe('readConsistent', () => {
  it('answers at once from a cache already at storage revision, asking for no progress', async () => {
    let asked = 0;
    const got = await readConsistent(
      { kv: storeAt(() => 7, 'on-request'), cache: cacheAt(7), requestProgress: () => asked++ },
      (rv) => rv,
    );
    expect(got).toEqual({ value: 7 });
    expect(asked).toBe(0);
  });

  it("asks etcd for progress until its answer brings the cache to storage's revision", async () => {
    const cache = cacheAt(3);
    let asked = 0;
    const requestProgress = () => {
      // etcd answers the second request only (the first found a watcher still catching up).
      if (++asked === 2) setTimeout(() => cache.advance(9), 5);
    };
    const got = await readConsistent({ kv: storeAt(() => 9, 'on-request'), cache, requestProgress }, (rv) => rv);
    expect(got).toEqual({ value: 9 });
    expect(asked).toBe(2);
  });

  it('reads storage (null) at once where progress is not safe, and after the timeout where none comes', async () => {
    const noProgress = await readConsistent(
      { kv: storeAt(() => 9, 'none'), cache: cacheAt(3), requestProgress: () => undefined },
      () => 'cache',
    );
    expect(noProgress).toBeNull();
    const started = Date.now();
    const silent = await readConsistent(
      { kv: storeAt(() => 9, 'every-write'), cache: cacheAt(3), requestProgress: () => undefined, timeoutMs: 250 },
      () => 'cache',
    );
    expect(silent).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('reads storage when the cache stops serving while the read waits', async () => {
    const cache = cacheAt(3);
    setTimeout(() => cache.invalidate(), 20);
    const got = await readConsistent(
      { kv: storeAt(() => 9, 'every-write'), cache, requestProgress: () => undefined },
      () => 'cache',
    );
    expect(got).toBeNull();
  });
});

describe('progressRequestsSafe', () => {
  it.each([
    ['3.4.23', false],
    ['3.4.30', false],
    ['3.4.31', true],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.6.0', true],
    ['3.3.27', false],
    ['4.0.0', true],
    ['garbage', false],
  ])('etcd %s: %s', (version, safe) => {
    expect(progressRequestsSafe(version)).toBe(safe);
  });
});

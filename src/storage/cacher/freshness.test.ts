import { describe, expect, it } from 'vitest';
import { progressRequestsSafe } from '../kv/etcd/etcd-store.js';
import { KvError, type KvStore, type WatchProgressMode } from '../kv/types.js';
import { readConsistent } from './freshness.js';
import { WatchCache } from './watch-cache.js';

/**
 * The calls readConsistent makes of storage: its current revision, how progress is learnt, and
 * (without progress) the range's key count and its keys changed since a revision.
 */
function storeAt(
  revision: () => number,
  mode: WatchProgressMode,
  inRange: { count: number; changed: string[] } = { count: 0, changed: [] },
): KvStore {
  const range: KvStore['range'] = async (o) => ({
    revision: revision(),
    count: inRange.count,
    more: false,
    kvs: o.countOnly
      ? []
      : inRange.changed.map((key) => ({ key, value: '', createRevision: 1, modRevision: 1, version: 1, lease: 0 })),
  });
  return { currentRevision: async () => revision(), watchProgress: async () => mode, range } as Pick<
    KvStore,
    'currentRevision' | 'watchProgress' | 'range'
  > as KvStore;
}

/** A read's range the fake store never reads (these cases never prove a range). */
const NO_RANGE = { start: '/r/', end: '/r0', cachedCount: () => 0 };

function cacheAt(revision: number): WatchCache {
  const cache = new WatchCache();
  cache.replace([], revision);
  return cache;
}

describe('readConsistent', () => {
  it('answers at once from a cache already at storage revision, asking for no progress', async () => {
    let asked = 0;
    const got = await readConsistent(
      { kv: storeAt(() => 7, 'on-request'), cache: cacheAt(7), requestProgress: () => asked++, range: NO_RANGE },
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
    const got = await readConsistent(
      { kv: storeAt(() => 9, 'on-request'), cache, requestProgress, range: NO_RANGE },
      (rv) => rv,
    );
    expect(got).toEqual({ value: 9 });
    expect(asked).toBe(2);
  });

  it('without safe progress, answers at storage revision for a range proven unchanged, else reads storage', async () => {
    const range = { ...NO_RANGE, cachedCount: () => 2 };
    const proven = await readConsistent(
      {
        kv: storeAt(() => 9, 'none', { count: 2, changed: [] }),
        cache: cacheAt(3),
        requestProgress: () => undefined,
        range,
      },
      (rv) => rv,
    );
    expect(proven).toEqual({ value: 9 });
    const changed = await readConsistent(
      {
        kv: storeAt(() => 9, 'none', { count: 2, changed: ['/r/a'] }),
        cache: cacheAt(3),
        requestProgress: () => undefined,
        range,
      },
      (rv) => rv,
    );
    expect(changed).toBeNull();
    const deleted = await readConsistent(
      {
        kv: storeAt(() => 9, 'none', { count: 1, changed: [] }),
        cache: cacheAt(3),
        requestProgress: () => undefined,
        range,
      },
      (rv) => rv,
    );
    expect(deleted).toBeNull();
  });

  it('reads storage (null), not 410, when storage is compacted past its revision before the proof reads it', async () => {
    const kv = storeAt(() => 9, 'none');
    kv.range = async () => {
      throw new KvError('Compacted', 'etcdserver: mvcc: required revision has been compacted', 10);
    };
    const got = await readConsistent(
      { kv, cache: cacheAt(3), requestProgress: () => undefined, range: { ...NO_RANGE, cachedCount: () => 2 } },
      (rv) => rv,
    );
    expect(got).toBeNull();
    kv.range = async () => {
      throw new KvError('Unavailable', 'no member reachable');
    };
    await expect(
      readConsistent({ kv, cache: cacheAt(3), requestProgress: () => undefined, range: NO_RANGE }, (rv) => rv),
    ).rejects.toMatchObject({ code: 'Unavailable' });
  });

  it('reads storage (null) after the timeout where no progress comes', async () => {
    const started = Date.now();
    const silent = await readConsistent(
      {
        kv: storeAt(() => 9, 'every-write'),
        cache: cacheAt(3),
        requestProgress: () => undefined,
        timeoutMs: 250,
        range: NO_RANGE,
      },
      () => 'cache',
    );
    expect(silent).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('reads storage when the cache stops serving while the read waits', async () => {
    const cache = cacheAt(3);
    setTimeout(() => cache.invalidate(), 20);
    const got = await readConsistent(
      { kv: storeAt(() => 9, 'every-write'), cache, requestProgress: () => undefined, range: NO_RANGE },
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

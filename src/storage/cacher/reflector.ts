/**
 * Keeps a watch cache in step with storage (upstream client-go reflector as the cacher runs
 * it): a paged list of the resource at one revision, then ONE watch of the resource's prefix
 * from the revision after it, without previous values (the cache has them). When the watch
 * fails (storage lost, revision compacted) the cache stops serving, and the reflector lists
 * again after a backoff (100 ms doubling to 5 s; at once after a compaction).
 */
import type { ApiObject } from '../../api/object.js';
import { decodeObject } from '../codec.js';
import { KvError, prefixEnd, type KvStore, type KvWatch } from '../kv/types.js';
import type { CacheEvent, WatchCache } from './watch-cache.js';

export interface ReflectorOptions {
  readonly kv: KvStore;
  /** Full key prefix of the resource (`/registry/pods/`). */
  readonly fullPrefix: string;
  /** Length of the storage root to strip for relative keys (`/registry/` -> 10). */
  readonly rootLength: number;
  readonly cache: WatchCache;
  /** Keys per page of the initial list (upstream's reflector pages by 10,000 at most). */
  readonly pageSize?: number;
  /** A change was applied to the cache. */
  readonly onEvent: (ev: CacheEvent) => void;
  /** The cache advanced to a revision (after every watch response). */
  readonly onProgress: (revision: number) => void;
  /** The cache holds a fresh list and serves. */
  readonly onReady: () => void;
  /** The watch failed: the cache must stop serving until the next onReady. */
  readonly onLost: (err: unknown) => void;
}

/** Milliseconds between progress requests while reads wait (upstream's progress requester ticks every 100 ms). */
const PROGRESS_REQUEST_INTERVAL_MS = 100;

export class Reflector {
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  /** The storage watch the cache is following now. */
  private stream: KvWatch | undefined;
  private lastProgressRequest = 0;

  constructor(private readonly opts: ReflectorOptions) {}

  /** Start listing and watching in the background. */
  start(): void {
    this.running ??= this.run();
  }

  /** Stop watching; resolves once the loop has ended. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /**
   * Ask storage for a progress notification on the cache's watch (etcd's progress request), at
   * most once per 100 ms however many reads wait for one; the answer advances the cache.
   */
  requestProgress(): void {
    const now = Date.now();
    if (now - this.lastProgressRequest < PROGRESS_REQUEST_INTERVAL_MS) return;
    this.lastProgressRequest = now;
    this.stream?.requestProgress?.();
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (!this.abort.signal.aborted) {
      let compacted = false;
      try {
        const revision = await this.list();
        if (this.abort.signal.aborted) return;
        this.opts.onReady();
        backoff = 100;
        await this.watch(revision);
      } catch (err) {
        if (this.abort.signal.aborted) return;
        compacted = err instanceof KvError && err.code === 'Compacted';
        this.opts.onLost(err);
      }
      if (!compacted) await sleep(backoff, this.abort.signal);
      backoff = Math.min(backoff * 2, 5000);
    }
  }

  /** Read every object at one revision, in pages, into the cache. Returns that revision. */
  private async list(): Promise<number> {
    const { kv, fullPrefix, rootLength, cache } = this.opts;
    const end = prefixEnd(fullPrefix);
    const items: { key: string; object: ApiObject; lease: number }[] = [];
    let start = fullPrefix;
    let revision = 0;
    for (;;) {
      const page = await kv.range({ start, end, revision, limit: this.opts.pageSize ?? 10_000 });
      if (revision === 0) revision = page.revision;
      for (const item of page.kvs)
        items.push({ key: item.key.slice(rootLength), object: decodeObject(item), lease: item.lease });
      if (!page.more || page.kvs.length === 0) break;
      start = page.kvs[page.kvs.length - 1].key + '\0';
    }
    cache.replace(items, revision);
    return revision;
  }

  /** Apply the watch of the prefix from `revision + 1` until it fails or stops. */
  private async watch(revision: number): Promise<void> {
    const { kv, fullPrefix, rootLength, cache } = this.opts;
    const stream = kv.watch({
      prefix: fullPrefix,
      fromRevision: revision + 1,
      signal: this.abort.signal,
      prevKv: false,
    });
    this.stream = stream;
    try {
      for await (const response of stream) {
        for (const change of response.events) {
          const object = change.type === 'put' ? decodeObject(change.kv) : null;
          const ev = cache.apply(change.kv.key.slice(rootLength), change.kv.modRevision, object, change.kv.lease);
          if (ev) this.opts.onEvent(ev);
        }
        cache.advance(response.revision);
        this.opts.onProgress(cache.revision);
      }
    } finally {
      this.stream = undefined;
    }
    if (!this.abort.signal.aborted) throw new KvError('Unavailable', 'watch ended');
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

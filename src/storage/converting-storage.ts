/**
 * Storage seen in one served version of a resource whose versions convert through I/O (a custom
 * resource with a conversion webhook), as upstream's per-version storage codec does
 * (apiextensions-apiserver crdConversionRESTOptionsGetter: objects are encoded to the storage
 * version on the way in and decoded to the served version on the way out): every object read
 * (get, list, watch, the current object of an update, a deleted object) is converted to
 * `servedApiVersion`, every object written to `storageApiVersion`. Objects already at the wanted
 * version are not sent. A list is converted in one call. Conversions of stored objects are kept
 * per stored object (those of the watch cache are shared and never change), so a cached object
 * is converted once per version while it is cached. Selectors (a list's or watch's predicate)
 * apply to the objects as converted, since each version has its own selectable fields: a watch
 * with one derives upstream's transitions (entering ADDED, leaving DELETED) from its source's
 * previous objects.
 *
 * The converter's errors pass through unchanged (the store turns them into 500s, as upstream).
 */
import type { ApiObject } from '../api/object.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  ListOptions,
  ListResult,
  ObjectStorage,
  ObjectWatchOptions,
  TryUpdate,
  UpdateOptions,
  WatchEvent,
} from './types.js';

/** Converts objects to an apiVersion (`group/version`), in order. Throws on failure. */
export type ObjectConverter = (objs: readonly ApiObject[], apiVersion: string) => Promise<ApiObject[]>;

/** {@link ObjectStorage} of `inner` in `servedApiVersion`, storing `storageApiVersion`. */
export class ConvertingStorage implements ObjectStorage {
  private readonly served = new WeakMap<ApiObject, ApiObject>();

  constructor(
    private readonly inner: ObjectStorage,
    private readonly convert: ObjectConverter,
    private readonly servedApiVersion: string,
    private readonly storageApiVersion: string,
  ) {}

  get kv() {
    return this.inner.kv;
  }

  fullKey(key: string): string {
    return this.inner.fullKey(key);
  }

  /** `objs` (as stored) in the served version, converting in one call those not yet converted. */
  private async toServed(objs: readonly ApiObject[]): Promise<ApiObject[]> {
    const pending = objs.filter((o) => o.apiVersion !== this.servedApiVersion && !this.served.has(o));
    if (pending.length) {
      const converted = await this.convert(pending, this.servedApiVersion);
      pending.forEach((o, i) => this.served.set(o, converted[i]!));
    }
    return objs.map((o) => this.served.get(o) ?? o);
  }

  private async one(obj: ApiObject): Promise<ApiObject> {
    return (await this.toServed([obj]))[0]!;
  }

  private async toStorage(obj: ApiObject): Promise<ApiObject> {
    if (obj.apiVersion === this.storageApiVersion) return obj;
    return (await this.convert([obj], this.storageApiVersion))[0]!;
  }

  async create(key: string, obj: ApiObject, opts?: CreateOptions): Promise<ApiObject> {
    return this.one(await this.inner.create(key, await this.toStorage(obj), opts));
  }

  async get(key: string, opts?: GetOptions): Promise<ApiObject> {
    return this.one(await this.inner.get(key, opts));
  }

  async list(keyPrefix: string, opts?: ListOptions): Promise<ListResult> {
    const predicate = opts?.predicate;
    if (!predicate) {
      const res = await this.inner.list(keyPrefix, opts);
      return { ...res, items: await this.toServed(res.items) };
    }
    // Selectors apply to the served version (its selectable fields): select after converting.
    // A page may then hold fewer than `limit` items, which the API allows.
    const res = await this.inner.list(keyPrefix, { ...opts, predicate: undefined, indexValues: undefined });
    return { ...res, items: (await this.toServed(res.items)).filter(predicate) };
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: UpdateOptions): Promise<ApiObject> {
    const stored = await this.inner.guaranteedUpdate(
      key,
      async (current) => this.toStorage(await tryUpdate(current === null ? null : await this.one(current))),
      opts,
    );
    return this.one(stored);
  }

  async delete(key: string, opts?: DeleteOptions): Promise<ApiObject> {
    return this.one(await this.inner.delete(key, opts));
  }

  watch(key: string, opts: Omit<ObjectWatchOptions, 'fullKey'>): AsyncIterable<WatchEvent> {
    const { predicate } = opts;
    if (!predicate) return this.convertEvents(this.inner.watch(key, opts));
    // Select after converting, with upstream's transitions (entering ADDED, leaving DELETED).
    const source = this.inner.watch(key, { ...opts, predicate: undefined, indexValues: undefined });
    return this.selectEvents(source, predicate);
  }

  private async *convertEvents(source: AsyncIterable<WatchEvent>): AsyncGenerator<WatchEvent> {
    for await (const ev of source) {
      if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') yield ev;
      else yield { type: ev.type, object: await this.one(ev.object) };
    }
  }

  private async *selectEvents(
    source: AsyncIterable<WatchEvent>,
    matches: (obj: ApiObject) => boolean,
  ): AsyncGenerator<WatchEvent> {
    for await (const ev of source) {
      if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') {
        yield ev;
        continue;
      }
      const object = await this.one(ev.object);
      const now = matches(object);
      if (ev.type !== 'MODIFIED') {
        if (now) yield { type: ev.type, object };
        continue;
      }
      const prev = ev.prevObject ? await this.one(ev.prevObject) : undefined;
      const before = prev ? matches(prev) : now;
      if (now) yield { type: before ? 'MODIFIED' : 'ADDED', object };
      else if (before && prev) yield { type: 'DELETED', object: atRevision(prev, object) };
    }
  }
}

/** `prev` at the resourceVersion of `cur` (a DELETED event for an object leaving a selector, as the watch cache's). */
function atRevision(prev: ApiObject, cur: ApiObject): ApiObject {
  return { ...prev, metadata: { ...prev.metadata, resourceVersion: cur.metadata.resourceVersion } };
}

/**
 * A KvStore decorator that times every storage call for the etcd_request_* metrics, as
 * upstream's storage layer records them (k8s.io/apiserver pkg/storage/etcd3/metrics):
 * `operation` is get, list, create, update, delete, compact, grant or revision; `type` is the
 * resource the key belongs to (`configmaps` for `/registry/configmaps/ns/name`). Behaviour and
 * errors are those of the wrapped store. Watches are not timed (they are long-running).
 */
import type { KvStore, KvWatch, RangeOptions, RangeResult, TxnResult, WatchOptions } from './types.js';

/** Where the decorator reports: seconds per call, and whether it failed. */
export interface StorageObserver {
  observe(operation: string, type: string, seconds: number, failed: boolean): void;
}

/** Wrap `kv` so every call is reported to `observer`; `prefix` is the key prefix (`/registry`). */
export function instrumentKvStore(kv: KvStore, prefix: string, observer: StorageObserver): KvStore {
  const root = prefix.endsWith('/') ? prefix : `${prefix}/`;
  const typeOf = (key: string): string => {
    if (!key.startsWith(root)) return '';
    const end = key.indexOf('/', root.length);
    return key.slice(root.length, end < 0 ? undefined : end);
  };
  /** Report the call that started at `started` (hrtime ns) once `call` settles; settles as `call` does. */
  const timed = <T>(operation: string, key: string, started: bigint, call: Promise<T>): Promise<T> =>
    call.then(
      (result) => {
        observer.observe(operation, typeOf(key), Number(process.hrtime.bigint() - started) / 1e9, false);
        return result;
      },
      (err: unknown) => {
        observer.observe(operation, typeOf(key), Number(process.hrtime.bigint() - started) / 1e9, true);
        throw err;
      },
    );
  const now = () => process.hrtime.bigint();
  return {
    backend: kv.backend,
    range: (o: RangeOptions): Promise<RangeResult> =>
      timed(o.end === undefined ? 'get' : 'list', o.start, now(), kv.range(o)),
    create: (key: string, value: string, lease?: number): Promise<TxnResult> =>
      timed('create', key, now(), kv.create(key, value, lease)),
    update: (key: string, value: string, rev: number, lease?: number): Promise<TxnResult> =>
      timed('update', key, now(), kv.update(key, value, rev, lease)),
    delete: (key: string, rev?: number): Promise<TxnResult> => timed('delete', key, now(), kv.delete(key, rev)),
    watch: (o: WatchOptions): KvWatch => kv.watch(o),
    currentRevision: (): Promise<number> => timed('revision', '', now(), kv.currentRevision()),
    watchProgress: () => kv.watchProgress(),
    compact: (revision: number): Promise<void> => timed('compact', '', now(), kv.compact(revision)),
    grantLease: (ttl: number): Promise<number> => timed('grant', '', now(), kv.grantLease(ttl)),
    ...(kv.dbSizeBytes ? { dbSizeBytes: () => kv.dbSizeBytes!() } : {}),
    close: (): Promise<void> => kv.close(),
  };
}

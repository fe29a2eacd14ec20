/**
 * Opening a backend: from the settings (`etcd3` at the etcd URLs, `embedded` LMDB under the
 * data directory, or `memory`), or, for tests and benchmarks, from a URL list (none or
 * `memory://` opens the memory store; `http://` / `https://` endpoints open etcd).
 */
import { EtcdKvStore, type EtcdStoreOptions } from './etcd/etcd-store.js';
import { EmbeddedKvStore } from './embedded/embedded-store.js';
import { MemoryKvStore } from './memory/memory-store.js';
import { KvError, type KvStore } from './types.js';

/** Which backend to open: `etcd3` at `urls`, `embedded` under `dataDir`, or `memory`. */
export interface StorageSpec {
  readonly backend: 'etcd3' | 'embedded' | 'memory';
  readonly urls: readonly string[];
  readonly dataDir: string;
}

/**
 * Open the store for `urls`. Throws KvError('Internal') for an unknown scheme or a mix of
 * memory and etcd URLs. Opening etcd does not wait for a connection; the first call does.
 */
export async function openKvStore(spec: readonly string[] | StorageSpec, options: EtcdStoreOptions = {}): Promise<KvStore> {
  if (!Array.isArray(spec)) {
    const s = spec as StorageSpec;
    if (s.backend === 'memory') return new MemoryKvStore();
    if (s.backend === 'embedded') return new EmbeddedKvStore(s.dataDir);
    return new EtcdKvStore(s.urls, options);
  }
  const urls = spec as readonly string[];
  const list = urls.map((u) => u.trim()).filter(Boolean);
  if (list.length === 0 || list.every((u) => u.startsWith('memory://'))) return new MemoryKvStore();
  if (!list.every((u) => /^https?:\/\//.test(u))) {
    throw new KvError('Internal', `unsupported storage URLs ${list.join(',')}: use http(s)://host:port for etcd or memory://`);
  }
  return new EtcdKvStore(list, options);
}

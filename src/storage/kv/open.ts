/**
 * Opening a backend: from the settings (`etcd3` at the etcd URLs, `embedded` LMDB under the
 * data directory, or `memory`), or, for tests and benchmarks, from a URL list (none or
 * `memory://` opens the memory store; `http://` / `https://` endpoints open etcd). TLS to etcd
 * (upstream's --etcd-cafile, --etcd-certfile, --etcd-keyfile) comes as file paths in the
 * settings, read here, or as ready credentials in the options.
 */
import { EtcdKvStore, type EtcdStoreOptions } from './etcd/etcd-store.js';
import { hasEtcdTls, readEtcdCredentials, type EtcdTlsFiles } from './etcd/etcd-tls.js';
import { EmbeddedKvStore } from './embedded/embedded-store.js';
import { MemoryKvStore } from './memory/memory-store.js';
import { KvError, type KvStore } from './types.js';

/** Which backend to open: `etcd3` at `urls`, `embedded` under `dataDir`, or `memory`. */
export interface StorageSpec {
  readonly backend: 'etcd3' | 'embedded' | 'memory';
  readonly urls: readonly string[];
  readonly dataDir: string;
  /** PEM files for TLS to etcd (`etcd3` only); see etcd/etcd-tls.ts. */
  readonly etcdTls?: EtcdTlsFiles;
}

/**
 * Open the store for `urls`. Throws KvError('Internal') for an unknown scheme, a mix of memory
 * and etcd URLs, or TLS credentials with an `http://` URL (etcd3 would dial it with TLS);
 * throws EtcdTlsError (naming the file) when a TLS file of the settings cannot be used.
 * Opening etcd does not wait for a connection; the first call does.
 */
export async function openKvStore(
  spec: readonly string[] | StorageSpec,
  options: EtcdStoreOptions = {},
): Promise<KvStore> {
  if (!Array.isArray(spec)) {
    const s = spec as StorageSpec;
    if (s.backend === 'memory') return new MemoryKvStore();
    if (s.backend === 'embedded') return new EmbeddedKvStore(s.dataDir);
    const credentials = hasEtcdTls(s.etcdTls) ? await readEtcdCredentials(s.etcdTls) : options.credentials;
    return openEtcd(s.urls, { ...options, credentials });
  }
  const urls = spec as readonly string[];
  const list = urls.map((u) => u.trim()).filter(Boolean);
  if (list.length === 0 || list.every((u) => u.startsWith('memory://'))) return new MemoryKvStore();
  if (!list.every((u) => /^https?:\/\//.test(u))) {
    throw new KvError(
      'Internal',
      `unsupported storage URLs ${list.join(',')}: use http(s)://host:port for etcd or memory://`,
    );
  }
  return openEtcd(list, options);
}

/** The etcd store at `urls`; refuses credentials with a plain `http://` URL (KvError 'Internal'). */
function openEtcd(urls: readonly string[], options: EtcdStoreOptions): KvStore {
  const plain = urls.filter((u) => !u.trim().startsWith('https://'));
  if (options.credentials && plain.length > 0) {
    throw new KvError(
      'Internal',
      `TLS to etcd (--etcd-cafile, --etcd-certfile, --etcd-keyfile) needs https:// etcd URLs, not ${plain.join(',')}`,
    );
  }
  return new EtcdKvStore(urls, options);
}

/**
 * The raw etcd side of the request-shaped scenarios: the `etcd3` client from Node (the
 * baseline the issue names), calling etcd's KV service with the shapes the API server uses
 * (k8s.io/apiserver pkg/storage/etcd3/store.go): a create is Txn(If ModRevision == 0, Then Put,
 * Else Get), a get a linearizable Range of one key, a list a Range of a prefix. Values are
 * turned into strings as the server must.
 */
import { Etcd3 } from 'etcd3';
import { prefixEnd } from '../src/storage/kv/types.js';

/** A raw etcd client and its three operations. */
export interface RawEtcd {
  create(key: string, value: string): Promise<void>;
  get(key: string): Promise<string | undefined>;
  /** Every value under `prefix`; throws when there is none. */
  list(prefix: string): Promise<string[]>;
  close(): void;
}

/** The raw client of `endpoint` (`http://host:port`). */
export function rawEtcd(endpoint: string): RawEtcd {
  const client = new Etcd3({ hosts: [endpoint] });
  const buf = (s: string) => Buffer.from(s, 'utf8');
  return {
    async create(key, value) {
      const k = buf(key);
      const res = await client.kv.txn({
        compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: 0 }],
        success: [{ request_put: { key: k, value: buf(value) } }],
        failure: [{ request_range: { key: k } }],
      });
      if (!res.succeeded) throw new Error(`${key} exists`);
    },
    async get(key) {
      const res = await client.kv.range({ key: buf(key) });
      return res.kvs[0]?.value.toString('utf8');
    },
    async list(prefix) {
      const res = await client.kv.range({ key: buf(prefix), range_end: buf(prefixEnd(prefix)) });
      if (res.kvs.length === 0) throw new Error('empty range');
      return res.kvs.map((kv) => kv.value.toString('utf8'));
    },
    close: () => client.close(),
  };
}

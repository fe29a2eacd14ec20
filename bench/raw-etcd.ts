/**
 * The raw etcd side of the request-shaped scenarios: the `etcd3` client from Node (the
 * baseline the issue names), calling etcd's KV service with the shapes the API server uses
 * (k8s.io/apiserver pkg/storage/etcd3/store.go): a create is Txn(If ModRevision == 0, Then Put,
 * Else Get), an update Txn(If ModRevision == the revision read, Then Put, Else Get), a get a
 * linearizable Range of one key, a list a Range of a prefix. Values are turned into strings as
 * the server must.
 */
import { Etcd3 } from 'etcd3';
import { prefixEnd } from '../src/storage/kv/types.js';

/** A raw etcd client and its three operations. */
export interface RawEtcd {
  /** Create `key`; resolves to the revision of the write. Throws when the key exists. */
  create(key: string, value: string): Promise<number>;
  /** Replace `key` if it was last written at `modRevision`; resolves to the revision of the write. Throws on a conflict. */
  update(key: string, value: string, modRevision: number): Promise<number>;
  get(key: string): Promise<string | undefined>;
  /** Every value under `prefix`; throws when there is none. */
  list(prefix: string): Promise<string[]>;
  /** Every key and value under `prefix` as received (no decoding); throws when there is none. */
  range(prefix: string): Promise<{ key: Buffer; value: Buffer }[]>;
  close(): void;
}

/**
 * The raw client of `endpoint` (`http://host:port`): grpc-js's defaults but for the largest
 * message received (unbounded: a range of 5,000 values of 1 KiB is above its 4 MiB default);
 * BENCH_ETCD_WINDOW=go gives its connection Go's HTTP/2 windows (4 MiB per stream, 1 GiB per
 * connection) instead of grpc-js's 64 KiB.
 */
export function rawEtcd(endpoint: string): RawEtcd {
  const client = new Etcd3({
    hosts: [endpoint],
    grpcOptions: {
      'grpc.max_receive_message_length': -1,
      ...(process.env.BENCH_ETCD_WINDOW === 'go' ? { 'grpc-node.flow_control_window': 4 << 20 } : {}),
    },
  });
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
      return Number(res.header.revision);
    },
    async update(key, value, modRevision) {
      const k = buf(key);
      const res = await client.kv.txn({
        compare: [{ key: k, target: 'Mod', result: 'Equal', mod_revision: modRevision }],
        success: [{ request_put: { key: k, value: buf(value) } }],
        failure: [{ request_range: { key: k } }],
      });
      if (!res.succeeded) throw new Error(`${key} changed since ${modRevision}`);
      return Number(res.header.revision);
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
    async range(prefix) {
      const res = await client.kv.range({ key: buf(prefix), range_end: buf(prefixEnd(prefix)) });
      if (res.kvs.length === 0) throw new Error('empty range');
      return res.kvs;
    },
    close: () => client.close(),
  };
}

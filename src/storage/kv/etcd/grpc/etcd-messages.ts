/**
 * The etcd v3 messages the client sends and reads (KV Range and Txn, Watch), as protobufjs
 * types built from a descriptor of their fields. Field numbers and types are etcd's
 * (go.etcd.io/etcd api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto, unchanged since 3.0).
 * int64 fields decode as `Long` (protobufjs with the `long` package): revisions fit a double
 * and are read with {@link int}; lease ids may not and are kept as decimal strings.
 */
import protobuf from 'protobufjs';

const int64 = (id: number) => ({ type: 'int64', id });
const bytes = (id: number) => ({ type: 'bytes', id });
const bool = (id: number) => ({ type: 'bool', id });
const of = (type: string, id: number, rule?: 'repeated') => (rule ? { type, id, rule } : { type, id });

const root = protobuf.Root.fromJSON({
  nested: {
    etcd: {
      nested: {
        // Only the revision is read: cluster_id (1), member_id (2) and raft_term (4) are left
        // undeclared, so decoding skips them instead of building a Long for each.
        ResponseHeader: { fields: { revision: int64(3) } },
        KeyValue: {
          fields: {
            key: bytes(1),
            create_revision: int64(2),
            mod_revision: int64(3),
            version: int64(4),
            value: bytes(5),
            lease: int64(6),
          },
        },
        RangeRequest: {
          fields: {
            key: bytes(1),
            range_end: bytes(2),
            limit: int64(3),
            revision: int64(4),
            serializable: bool(7),
            keys_only: bool(8),
            count_only: bool(9),
            min_mod_revision: int64(10),
          },
        },
        RangeResponse: {
          fields: {
            header: of('ResponseHeader', 1),
            kvs: of('KeyValue', 2, 'repeated'),
            more: bool(3),
            count: int64(4),
          },
        },
        PutRequest: { fields: { key: bytes(1), value: bytes(2), lease: int64(3), prev_kv: bool(4) } },
        PutResponse: { fields: { header: of('ResponseHeader', 1), prev_kv: of('KeyValue', 2) } },
        DeleteRangeRequest: { fields: { key: bytes(1), range_end: bytes(2), prev_kv: bool(3) } },
        DeleteRangeResponse: {
          fields: { header: of('ResponseHeader', 1), deleted: int64(2), prev_kvs: of('KeyValue', 3, 'repeated') },
        },
        RequestOp: {
          oneofs: { request: { oneof: ['request_range', 'request_put', 'request_delete_range'] } },
          fields: {
            request_range: of('RangeRequest', 1),
            request_put: of('PutRequest', 2),
            request_delete_range: of('DeleteRangeRequest', 3),
          },
        },
        ResponseOp: {
          oneofs: { response: { oneof: ['response_range', 'response_put', 'response_delete_range'] } },
          fields: {
            response_range: of('RangeResponse', 1),
            response_put: of('PutResponse', 2),
            response_delete_range: of('DeleteRangeResponse', 3),
          },
        },
        // result: Equal = 0 (the only one used); target: Mod = 2.
        Compare: {
          fields: {
            result: { type: 'int32', id: 1 },
            target: { type: 'int32', id: 2 },
            key: bytes(3),
            mod_revision: int64(6),
          },
        },
        TxnRequest: {
          fields: {
            compare: of('Compare', 1, 'repeated'),
            success: of('RequestOp', 2, 'repeated'),
            failure: of('RequestOp', 3, 'repeated'),
          },
        },
        TxnResponse: {
          fields: { header: of('ResponseHeader', 1), succeeded: bool(2), responses: of('ResponseOp', 3, 'repeated') },
        },
        // Filters (field 5) and fragmented responses (field 8) are not used.
        WatchCreateRequest: {
          fields: {
            key: bytes(1),
            range_end: bytes(2),
            start_revision: int64(3),
            progress_notify: bool(4),
            prev_kv: bool(6),
          },
        },
        WatchCancelRequest: { fields: { watch_id: int64(1) } },
        WatchProgressRequest: { fields: {} },
        WatchRequest: {
          oneofs: { request_union: { oneof: ['create_request', 'cancel_request', 'progress_request'] } },
          fields: {
            create_request: of('WatchCreateRequest', 1),
            cancel_request: of('WatchCancelRequest', 2),
            progress_request: of('WatchProgressRequest', 3),
          },
        },
        // type: Put = 0, Delete = 1 (mvccpb.Event.EventType).
        Event: { fields: { type: { type: 'int32', id: 1 }, kv: of('KeyValue', 2), prev_kv: of('KeyValue', 3) } },
        WatchResponse: {
          fields: {
            header: of('ResponseHeader', 1),
            watch_id: int64(2),
            created: bool(3),
            canceled: bool(4),
            compact_revision: int64(5),
            cancel_reason: { type: 'string', id: 6 },
            fragment: bool(7),
            events: of('Event', 11, 'repeated'),
          },
        },
      },
    },
  },
});

/** An int64 as protobufjs hands it over: a Long (or a number when small and `long` is absent). */
export type Int64 = number | { toNumber(): number; toString(): string };

/** mvccpb.KeyValue as decoded; a field left out on the wire (its default) may be absent. */
export interface EtcdKeyValue {
  key?: Uint8Array;
  value?: Uint8Array;
  create_revision?: Int64;
  mod_revision?: Int64;
  version?: Int64;
  lease?: Int64;
}

/** etcdserverpb.RangeRequest; absent fields are etcd's defaults. */
export interface RangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  limit?: number;
  revision?: number;
  keys_only?: boolean;
  count_only?: boolean;
  min_mod_revision?: number;
}

/** etcdserverpb.RangeResponse as decoded. */
export interface RangeResponse {
  header?: { revision: Int64 };
  kvs: EtcdKeyValue[];
  more: boolean;
  count: Int64;
}

/** etcdserverpb.RequestOp (one of its three requests). */
export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: { key: Uint8Array; value: Uint8Array; lease?: string };
  request_delete_range?: { key: Uint8Array; prev_kv?: boolean };
}

/** etcdserverpb.TxnRequest with ModRevision == compares (the only kind upstream's store uses). */
export interface TxnRequest {
  compare: { result: 0; target: 2; key: Uint8Array; mod_revision: number }[];
  success: RequestOp[];
  failure: RequestOp[];
}

/** etcdserverpb.TxnResponse as decoded. */
export interface TxnResponse {
  header?: { revision: Int64 };
  succeeded: boolean;
  responses: { response_range?: RangeResponse; response_delete_range?: { prev_kvs: EtcdKeyValue[] } }[];
}

/** etcdserverpb.WatchRequest: create a watch of [key, range_end) from start_revision (0: now). */
export interface WatchRequest {
  create_request?: {
    key: Uint8Array;
    range_end?: Uint8Array;
    start_revision?: number;
    progress_notify?: boolean;
    prev_kv?: boolean;
  };
  /** A progress request: etcd answers with a response without events at its current revision. */
  progress_request?: Record<string, never>;
}

/** mvccpb.Event as decoded: type 0 is a put, 1 a delete. */
export interface EtcdEvent {
  type: number;
  kv?: EtcdKeyValue;
  prev_kv?: EtcdKeyValue;
}

/** etcdserverpb.WatchResponse as decoded. */
export interface WatchResponse {
  header?: { revision: Int64 };
  watch_id: Int64;
  created: boolean;
  canceled: boolean;
  compact_revision: Int64;
  cancel_reason: string;
  fragment: boolean;
  events: EtcdEvent[];
}

/** Encoder and decoder of one request / response pair. */
export interface MessageCodec<Req, Res> {
  encode(req: Req): Uint8Array;
  decode(bytes: Uint8Array): Res;
}

function codec<Req, Res>(request: string, response: string): MessageCodec<Req, Res> {
  const reqType = root.lookupType(`etcd.${request}`);
  const resType = root.lookupType(`etcd.${response}`);
  return {
    encode: (req) => reqType.encode(req as protobuf.Message).finish(),
    decode: (b) => resType.decode(b) as unknown as Res,
  };
}

/** KV.Range. */
export const rangeCodec = codec<RangeRequest, RangeResponse>('RangeRequest', 'RangeResponse');
/** KV.Txn. */
export const txnCodec = codec<TxnRequest, TxnResponse>('TxnRequest', 'TxnResponse');

/** Watch.Watch (a bidirectional stream of these messages). */
export const watchCodec = codec<WatchRequest, WatchResponse>('WatchRequest', 'WatchResponse');

/** An int64 as a JavaScript number (revisions, counts and versions stay below 2^53). */
export function int(v: Int64 | undefined | null): number {
  return v == null ? 0 : typeof v === 'number' ? v : v.toNumber();
}

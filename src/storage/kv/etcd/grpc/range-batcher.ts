/**
 * Coalescing of concurrent single-key reads into one etcd call. Every read of one key at the
 * current revision (a GET without resourceVersion, the current-revision read of a consistent
 * list) costs a whole gRPC call: an HTTP/2 stream, its headers and trailers, a protobuf message
 * each way. Reads that arrive in the same turn of the event loop are sent together as one
 * read-only Txn whose success branch holds one RangeRequest each (etcd answers a read-only Txn
 * as a linearizable read, like a Range: etcdserver v3_server.go Txn), and each caller gets its
 * own RangeResponse back. Each read is still sent after its caller asked for it, so it sees
 * every write acknowledged before, as a Range of its own would.
 *  - A lone read goes out as a plain Range; a batch holds at most `maxOps` reads (etcd's
 *    default --max-txn-ops is 128).
 *  - The batch's deadline is the earliest of its reads' deadlines, so no read waits longer than
 *    it asked to.
 *  - A store that refuses such a Txn (kine accepts only the Txn shapes Kubernetes sends; an
 *    etcd run with a lower --max-txn-ops) answers UNKNOWN, INVALID_ARGUMENT or UNIMPLEMENTED:
 *    then batching is turned off for good and the batch's reads are sent one by one.
 */
import { GrpcCode, GrpcError } from './grpc-channel.js';
import type { RangeRequest, RangeResponse, TxnRequest, TxnResponse } from './etcd-messages.js';

/** The two calls the batcher makes, each answered by `deadline` (ms since the epoch). */
export interface RangeCalls {
  range(req: RangeRequest, deadline: number): Promise<RangeResponse>;
  txn(req: TxnRequest, deadline: number): Promise<TxnResponse>;
}

interface PendingRead {
  readonly req: RangeRequest;
  readonly deadline: number;
  readonly resolve: (res: RangeResponse) => void;
  readonly reject: (err: unknown) => void;
}

/** etcd's default --max-txn-ops. */
export const DEFAULT_MAX_BATCH = 128;

/** Codes with which a store says it does not take a multi-range Txn (see the file comment). */
const REFUSED: ReadonlySet<number> = new Set([GrpcCode.UNKNOWN, GrpcCode.INVALID_ARGUMENT, GrpcCode.UNIMPLEMENTED]);

/**
 * True for a read of one key at the current revision with nothing else asked (a limit is
 * allowed): those are the ones batched. Range reads, reads at a revision (which may be
 * compacted, failing the whole Txn), counts and keys-only reads go out alone.
 */
export function batchable(req: RangeRequest): boolean {
  return !req.range_end?.length && !req.revision && !req.count_only && !req.keys_only && !req.min_mod_revision;
}

/** See the file comment. */
export class RangeBatcher {
  private pending: PendingRead[] = [];
  private scheduled = false;
  private enabled = true;

  constructor(
    private readonly calls: RangeCalls,
    private readonly maxBatch = DEFAULT_MAX_BATCH,
  ) {}

  /** True until a store refused a batch. */
  get batching(): boolean {
    return this.enabled;
  }

  /** KV.Range, batched when {@link batchable}; rejects as the call (or the batch's Txn) does. */
  range(req: RangeRequest, deadline: number): Promise<RangeResponse> {
    if (!this.enabled || !batchable(req)) return this.calls.range(req, deadline);
    return new Promise((resolve, reject) => {
      this.pending.push({ req, deadline, resolve, reject });
      if (this.pending.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flushScheduled);
      }
    });
  }

  private readonly flushScheduled = () => {
    this.scheduled = false;
    this.flush();
  };

  private flush(): void {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    if (batch.length === 1) return this.alone(batch[0]);
    let deadline = batch[0].deadline;
    for (const read of batch) if (read.deadline < deadline) deadline = read.deadline;
    const txn: TxnRequest = { compare: [], success: batch.map((r) => ({ request_range: r.req })), failure: [] };
    this.calls.txn(txn, deadline).then(
      (res) => this.answer(batch, res),
      (err) => {
        if (err instanceof GrpcError && !err.connection && REFUSED.has(err.code)) {
          this.enabled = false;
          for (const read of batch) this.alone(read);
        } else for (const read of batch) read.reject(err);
      },
    );
  }

  private alone(read: PendingRead): void {
    this.calls.range(read.req, read.deadline).then(read.resolve, read.reject);
  }

  /** Hand each read its RangeResponse (with the Txn's header when etcd left one out). */
  private answer(batch: PendingRead[], res: TxnResponse): void {
    for (let i = 0; i < batch.length; i++) {
      const range = res.responses[i]?.response_range;
      if (!range) {
        batch[i].reject(new GrpcError(GrpcCode.INTERNAL, `the batched read ${i} has no range response`));
        continue;
      }
      if (!range.header) range.header = res.header;
      batch[i].resolve(range);
    }
  }
}

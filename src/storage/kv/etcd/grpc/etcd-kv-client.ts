/**
 * etcd's KV service (Range and Txn) and Watch streams over every member, on
 * {@link GrpcChannel}s: the calls of the request hot path and the watches that feed the watch
 * caches. Leases and maintenance stay on the `etcd3` client.
 *  - Members are taken in turn, so a retried call (etcd-retry.ts) lands on the next member.
 *  - A member whose call fails to reach it (GrpcError.connection) is skipped for
 *    `breakMs` (2 s), then tried again, as a circuit breaker that opens on one connection
 *    failure and half-opens after 2 s; when every member is skipped the call fails with
 *    cockatiel's BrokenCircuitError, which the store reports as "no member reachable".
 *  - A member that is only slow (a call on it timed out and its ping is unanswered:
 *    GrpcChannel.suspect) is passed over while another member is fine, but never skipped: when
 *    every member is slow, calls still go to them and wait within their deadlines, so a slow
 *    etcd gives late answers or timeouts, not "no member reachable".
 */
import { BrokenCircuitError } from 'cockatiel';
import {
  GrpcChannel,
  GrpcCode,
  GrpcError,
  type ChannelTls,
  type StreamCall,
  type StreamHandlers,
} from './grpc-channel.js';
import {
  rangeCodec,
  txnCodec,
  type MessageCodec,
  type RangeRequest,
  type RangeResponse,
  type TxnRequest,
  type TxnResponse,
} from './etcd-messages.js';
import { errorMessage } from '../../../../api/error-message.js';
import { RangeBatcher } from './range-batcher.js';

export interface EtcdKvClientOptions {
  /** TLS for every member (then `http://` members are dialled with TLS too). */
  readonly tls?: ChannelTls;
  /** Milliseconds a connection may take to be established (default 5000). */
  readonly dialTimeoutMs?: number;
  /** Largest request in bytes. */
  readonly maxSendBytes: number;
  /** Milliseconds a member is skipped after a connection failure (default 2000). */
  readonly breakMs?: number;
  /** Told "host: message" each time a member cannot be reached. */
  readonly onConnectionFailure?: (message: string) => void;
}

interface Member {
  readonly channel: GrpcChannel;
  /** Skipped until this time (ms since the epoch). */
  skipUntil: number;
}

/** See the file comment. Methods reject with GrpcError or BrokenCircuitError. */
export class EtcdKvClient {
  private readonly members: Member[];
  private readonly breakMs: number;
  private next = 0;
  /** Concurrent single-key reads sent as one Txn (range-batcher.ts). */
  private readonly batcher = new RangeBatcher({
    range: (req, deadline) => this.call('/etcdserverpb.KV/Range', rangeCodec, req, deadline),
    txn: (req, deadline) => this.txn(req, deadline),
  });

  /** `hosts`: `http(s)://host:port` of each member; nothing is dialled before the first call. */
  constructor(
    hosts: readonly string[],
    private readonly options: EtcdKvClientOptions,
  ) {
    this.breakMs = options.breakMs ?? 2000;
    this.members = hosts.map((host) => ({
      skipUntil: 0,
      channel: new GrpcChannel(options.tls ? host.replace(/^http:/, 'https:') : host, {
        tls: options.tls,
        dialTimeoutMs: options.dialTimeoutMs ?? 5000,
        maxSendBytes: options.maxSendBytes,
        onConnectionFailure: options.onConnectionFailure,
      }),
    }));
  }

  /**
   * KV.Range, answered by `deadline` (ms since the epoch). Reads of one key at the current
   * revision made in the same turn of the event loop go to etcd together (range-batcher.ts).
   */
  range(req: RangeRequest, deadline: number): Promise<RangeResponse> {
    return this.batcher.range(req, deadline);
  }

  /** KV.Txn, answered by `deadline` (ms since the epoch). */
  txn(req: TxnRequest, deadline: number): Promise<TxnResponse> {
    return this.call('/etcdserverpb.KV/Txn', txnCodec, req, deadline);
  }

  /**
   * Open a streaming call of `path` on the next member not being skipped, with `metadata`.
   * A connection failure puts the member's circuit open, as for unary calls. Throws
   * BrokenCircuitError when every member is being skipped.
   */
  stream(path: string, metadata: Record<string, string>, handlers: StreamHandlers): StreamCall {
    const member = this.pick();
    return member.channel.stream(path, metadata, {
      onMessage: handlers.onMessage,
      onEnd: (err) => {
        if (err?.connection) this.connectionFailed(member, err);
        handlers.onEnd(err);
      },
    });
  }

  /** Close every connection. */
  close(): void {
    for (const m of this.members) m.channel.close();
  }

  private async call<Req, Res>(path: string, codec: MessageCodec<Req, Res>, req: Req, deadline: number): Promise<Res> {
    const member = this.pick();
    let bytes: Buffer;
    try {
      bytes = await member.channel.unary(path, codec.encode(req), deadline);
    } catch (err) {
      if (err instanceof GrpcError && err.connection) this.connectionFailed(member, err);
      throw err;
    }
    try {
      return codec.decode(bytes);
    } catch (err) {
      throw new GrpcError(GrpcCode.INTERNAL, `cannot decode the response of ${path}: ${errorMessage(err)}`);
    }
  }

  /** Skip `member` for `breakMs` after a call failed to reach it. */
  private connectionFailed(member: Member, err: GrpcError): void {
    member.skipUntil = Date.now() + this.breakMs;
    this.options.onConnectionFailure?.(`${member.channel.target}: ${err.details}`);
  }

  /**
   * The next member in turn that is neither skipped nor suspect, else the next one not
   * skipped; throws BrokenCircuitError when every member is skipped.
   */
  private pick(): Member {
    const now = Date.now();
    const count = this.members.length;
    let slow = -1;
    for (let i = 0; i < count; i++) {
      const at = (this.next + i) % count;
      const m = this.members[at];
      if (m.skipUntil > now) continue;
      if (m.channel.suspect) {
        if (slow < 0) slow = at;
        continue;
      }
      this.next = (at + 1) % count;
      return m;
    }
    if (slow < 0) throw new BrokenCircuitError();
    this.next = (slow + 1) % count;
    return this.members[slow];
  }
}

/**
 * Retrying etcd calls on another member within one deadline. An attempt that fails with a
 * transient error (the member is gone, the connection dropped, the cluster is electing a
 * leader) is tried again after a short backoff on another member: the KV client
 * (grpc/etcd-kv-client.ts) takes members in turn, the etcd3 client (leases, maintenance) at
 * random, and both skip a member whose connection failed (see {@link isConnectionFailure}), so
 * the retry lands on a live member. This is the part of etcd's Go client retry interceptor
 * (go.etcd.io/etcd clientv3/retry_interceptor.go) we need: reads are always safe to repeat;
 * writes are compare-and-swap transactions whose repetition etcd-writes.ts makes safe.
 */
import { isBrokenCircuitError } from 'cockatiel';
import { GRPCUnavailableError, isRecoverableError } from 'etcd3';
import { GrpcError } from './grpc/grpc-channel.js';

/** gRPC codes worth another attempt (as the etcd3 client's recoverable errors): CANCELLED,
 * UNKNOWN, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, INTERNAL, UNAVAILABLE. */
const RECOVERABLE_CODES = new Set([1, 2, 4, 8, 10, 13, 14]);

export interface RetryOptions {
  /** Milliseconds from now after which no attempt starts and the last error is thrown. */
  readonly deadlineMs: number;
  /**
   * Longest one attempt may take (milliseconds), so that a call stuck on a member that lost its
   * leader is tried elsewhere in time; absent = the whole remaining deadline.
   */
  readonly attemptCapMs?: number;
}

/** No new attempt starts with less than this left (milliseconds). */
const MIN_ATTEMPT_MS = 200;

/**
 * True when an etcd call failed for a reason another attempt (on this or another member) may
 * not meet: unavailable, dropped, cancelled, timed out, aborted, or "too many requests".
 * False for answers that will not change: compaction, future revision, invalid arguments, a
 * message over the size limit, a closed client, every member's circuit open.
 */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof Error) || isBrokenCircuitError(err)) return false;
  if (/larger than max|compacted|future revision/.test(err.message)) return false;
  if (err instanceof GrpcError) return RECOVERABLE_CODES.has(err.code);
  return isRecoverableError(err);
}

/**
 * True when the call never reached a working etcd member: the connection could not be made or
 * was lost (gRPC UNAVAILABLE raised by the client, not by etcd, whose own UNAVAILABLE answers
 * such as "etcdserver: leader changed" come from a member that is up). These, and only these,
 * open the member's circuit breaker, so a member that is merely slow during an election is
 * never shunned. (A cancelled watch stream ends with CANCELLED: not a failure.)
 */
export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof GrpcError) return err.connection;
  return err instanceof GRPCUnavailableError && !/etcdserver:/.test(err.message);
}

/**
 * Run `attempt` until it resolves, it throws an error `retryable` rejects, or the deadline
 * leaves no time for another attempt; then the last error is thrown. `attempt` receives the
 * absolute time (ms since the epoch) its call must finish by and its 0-based number.
 */
export async function withRetry<T>(
  attempt: (deadline: number, n: number) => Promise<T>,
  options: RetryOptions,
  retryable: (err: unknown) => boolean = isTransient,
): Promise<T> {
  const deadline = Date.now() + options.deadlineMs;
  for (let n = 0; ; n++) {
    const remaining = deadline - Date.now();
    const slice = options.attemptCapMs ? Math.min(remaining, options.attemptCapMs) : remaining;
    try {
      return await attempt(Date.now() + slice, n);
    } catch (err) {
      if (!retryable(err)) throw err;
      // 25, 50, 100, 200, 400 ms (then 400), with jitter: time for a leader election to finish.
      const pause = Math.min(400, 25 * 2 ** n) * (0.5 + Math.random() / 2);
      if (deadline - Date.now() - pause < MIN_ATTEMPT_MS) throw err;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

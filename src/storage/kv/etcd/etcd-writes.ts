/**
 * Compare-and-swap writes that survive losing an etcd member mid-call. An attempt that failed
 * in transit (connection dropped, deadline, "leader changed") may or may not have been applied;
 * it is retried as the same transaction, and a retry whose compare then fails is judged by what
 * the key holds:
 *  - put (create: compare ModRevision == 0; update: == N): the key holds exactly the bytes we
 *    wrote (and our lease) -> an earlier attempt applied; report success at the key's
 *    ModRevision. This is sound because a created object carries a fresh uid and
 *    creationTimestamp, so no other writer produces the same bytes; for an update, another
 *    writer producing identical bytes leaves the state we asked for, which upstream's
 *    GuaranteedUpdate also treats as success without writing (store.go: bytes.Equal(data, orig)).
 *  - delete with compare ModRevision == N: the key is gone, or was re-created after N (its
 *    CreateRevision > N) -> the version we meant to delete is deleted; report success with that
 *    version read back at revision N (if history no longer has it, the outcome is reported as
 *    unknown). The reported revision is then the store's revision at the retry, an upper bound
 *    of the delete's.
 *  - unconditional delete: an absent key after an ambiguous attempt tells nothing of what was
 *    deleted; the outcome is reported as unknown.
 * A compare that fails when no earlier attempt can have applied is an ordinary conflict. A
 * write that gives up after an ambiguous attempt (its outcome unknown, or no member reachable
 * for the retry) fails with {@link outcomeUnknown}: a timeout (504), as upstream answers a write
 * whose etcd call timed out, never an "unavailable" that reads as nothing written.
 */
import { isBrokenCircuitError } from 'cockatiel';
import { KvError, type KeyValue, type TxnResult } from '../types.js';
import { isTransient, withRetry, type RetryOptions } from './etcd-retry.js';
import { GrpcError } from './grpc/grpc-channel.js';

/** One attempt of each etcd call the writes need, each finishing by `deadline` (ms since the epoch). */
export interface TxnAttempts {
  /** Txn(If ModRevision(key) == expected, Then Put(key, value, lease), Else Get(key)). */
  put(
    key: string,
    value: string,
    expectedModRevision: number,
    lease: number | undefined,
    deadline: number,
  ): Promise<TxnResult>;
  /** Txn(If ModRevision(key) == expected (when given), Then Delete(key, prev_kv), Else Get(key)). */
  delete(key: string, expectedModRevision: number | undefined, deadline: number): Promise<TxnResult>;
  /** Get(key) at `revision`; null when absent. */
  get(key: string, revision: number, deadline: number): Promise<KeyValue | null>;
}

/** A compare-and-swap put retried within `retry`; see the file comment. Throws the last attempt's error, or {@link outcomeUnknown}. */
export async function putWithRetry(
  tx: TxnAttempts,
  key: string,
  value: string,
  expectedModRevision: number,
  lease: number | undefined,
  retry: RetryOptions,
): Promise<TxnResult> {
  return retryWrite(async (deadline, ambiguous) => {
    const res = await tx.put(key, value, expectedModRevision, lease, deadline);
    const cur = res.current;
    if (res.succeeded || !ambiguous || !cur) return res;
    if (cur.value === value && cur.lease === (lease ?? 0))
      return { succeeded: true, revision: cur.modRevision, current: cur };
    return res;
  }, retry);
}

/** A delete retried within `retry`; see the file comment. Throws the last attempt's error, or {@link outcomeUnknown}. */
export async function deleteWithRetry(
  tx: TxnAttempts,
  key: string,
  expectedModRevision: number | undefined,
  retry: RetryOptions,
): Promise<TxnResult> {
  return retryWrite(async (deadline, ambiguous) => {
    const res = await tx.delete(key, expectedModRevision, deadline);
    if (res.succeeded || !ambiguous) return res;
    if (expectedModRevision === undefined) {
      if (res.current === null) throw UNKNOWN;
      return res;
    }
    const gone = res.current === null || res.current.createRevision > expectedModRevision;
    if (!gone) return res;
    const deleted = await tx.get(key, expectedModRevision, deadline).catch(() => null);
    if (!deleted || deleted.modRevision !== expectedModRevision) throw UNKNOWN;
    return { succeeded: true, revision: res.revision, current: deleted };
  }, retry);
}

/** Thrown by an attempt that finds the outcome of an earlier one cannot be told: retrying will not help. */
const UNKNOWN = Symbol('outcome unknown');

/**
 * withRetry for a write: `attempt` is told whether an earlier attempt failed in transit (it
 * may have been applied: see {@link mayHaveApplied}), so that it judges a failed compare by what
 * the key holds. When the write fails after such an attempt, the error is {@link outcomeUnknown} of that
 * attempt's error, a timeout (504) with the outcome unknown, as upstream answers a write whose
 * etcd call timed out, rather than the last attempt's error: a retry that then reached no
 * member would otherwise say 503, as if nothing had been written.
 */
async function retryWrite<T>(
  attempt: (deadline: number, ambiguous: boolean) => Promise<T>,
  retry: RetryOptions,
): Promise<T> {
  let inTransit: unknown;
  try {
    return await withRetry(
      async (deadline) => {
        try {
          return await attempt(deadline, inTransit !== undefined);
        } catch (err) {
          if (inTransit === undefined && err !== UNKNOWN && mayHaveApplied(err)) inTransit = err;
          throw err;
        }
      },
      retry,
      (err) => err !== UNKNOWN && isTransient(err),
    );
  } catch (err) {
    if (inTransit !== undefined && (err === UNKNOWN || isTransient(err) || isBrokenCircuitError(err)))
      throw outcomeUnknown(inTransit);
    throw err;
  }
}

/** False only for a call that never reached etcd (GrpcError.unsent, or every member skipped). */
function mayHaveApplied(err: unknown): boolean {
  if (isBrokenCircuitError(err)) return false;
  return !(err instanceof GrpcError && err.unsent);
}

/**
 * The error of a write whose outcome is unknown: a KvError 'Unavailable' whose message says it
 * timed out (the API answers 504 Timeout) and carries the in-transit attempt's error.
 */
export function outcomeUnknown(cause: unknown): KvError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new KvError(
    'Unavailable',
    `etcd unavailable: the write timed out with its outcome unknown (it may have been applied): ${message}`,
  );
}

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
 *    unknown: the original error). The reported revision is then the store's revision at the
 *    retry, an upper bound of the delete's.
 *  - unconditional delete: an absent key after an ambiguous attempt tells nothing of what was
 *    deleted; the original error is thrown (outcome unknown, as upstream on a timeout).
 * A compare that fails on the first attempt is an ordinary conflict.
 */
import type { KeyValue, TxnResult } from '../types.js';
import { isTransient, withRetry, type RetryOptions } from './etcd-retry.js';

/** One attempt of each etcd call the writes need, each finishing by `deadline` (ms since the epoch). */
export interface TxnAttempts {
  /** Txn(If ModRevision(key) == expected, Then Put(key, value, lease), Else Get(key)). */
  put(key: string, value: string, expectedModRevision: number, lease: number | undefined, deadline: number): Promise<TxnResult>;
  /** Txn(If ModRevision(key) == expected (when given), Then Delete(key, prev_kv), Else Get(key)). */
  delete(key: string, expectedModRevision: number | undefined, deadline: number): Promise<TxnResult>;
  /** Get(key) at `revision`; null when absent. */
  get(key: string, revision: number, deadline: number): Promise<KeyValue | null>;
}

/** A compare-and-swap put retried within `retry`; see the file comment. Throws the last attempt's error. */
export async function putWithRetry(
  tx: TxnAttempts,
  key: string,
  value: string,
  expectedModRevision: number,
  lease: number | undefined,
  retry: RetryOptions,
): Promise<TxnResult> {
  return withRetry(async (deadline, n) => {
    const res = await tx.put(key, value, expectedModRevision, lease, deadline);
    const cur = res.current;
    if (res.succeeded || n === 0 || !cur) return res;
    if (cur.value === value && cur.lease === (lease ?? 0)) return { succeeded: true, revision: cur.modRevision, current: cur };
    return res;
  }, retry);
}

/** A delete retried within `retry`; see the file comment. Throws the last attempt's error. */
export async function deleteWithRetry(tx: TxnAttempts, key: string, expectedModRevision: number | undefined, retry: RetryOptions): Promise<TxnResult> {
  let firstFailure: unknown;
  try {
    return await withRetry(
      async (deadline, n) => {
        const res = await tx.delete(key, expectedModRevision, deadline).catch((err: unknown) => {
          firstFailure ??= err;
          throw err;
        });
        if (res.succeeded || n === 0) return res;
        if (expectedModRevision === undefined) {
          if (res.current === null) throw new OutcomeUnknown(firstFailure);
          return res;
        }
        const gone = res.current === null || res.current.createRevision > expectedModRevision;
        if (!gone) return res;
        const deleted = await tx.get(key, expectedModRevision, deadline).catch(() => null);
        if (!deleted || deleted.modRevision !== expectedModRevision) throw new OutcomeUnknown(firstFailure);
        return { succeeded: true, revision: res.revision, current: deleted };
      },
      retry,
      (err) => !(err instanceof OutcomeUnknown) && isTransient(err),
    );
  } catch (err) {
    throw err instanceof OutcomeUnknown ? err.cause : err;
  }
}

/** A retried write whose earlier attempt may or may not have applied: `cause` is that attempt's error. */
class OutcomeUnknown {
  constructor(readonly cause: unknown) {}
}

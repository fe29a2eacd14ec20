/**
 * etcd and gRPC failures as KvError codes: shared by the store (etcd-store.ts) and its watches
 * (etcd-watch.ts).
 */
import { isBrokenCircuitError } from 'cockatiel';
import { KvError } from '../types.js';

/**
 * Map an etcd / gRPC failure to a KvError. `lastConnectionFailure` ("host: message", e.g. a
 * TLS handshake refused) tells why when every member's circuit is open.
 */
export function toKvError(err: unknown, lastConnectionFailure?: string): KvError {
  if (err instanceof KvError) return err;
  if (isBrokenCircuitError(err)) {
    const why = lastConnectionFailure ? `; last failure: ${lastConnectionFailure}` : '';
    return new KvError(
      'Unavailable',
      `etcd unavailable: no member reachable (each failed its last connection attempt${why})`,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/compacted/.test(message)) return new KvError('Compacted', 'mvcc: required revision has been compacted');
  if (/future revision/.test(message))
    return new KvError('FutureRevision', 'mvcc: required revision is a future revision');
  // etcd's own limit (--max-request-bytes) or the client's send limit: the write is too big, not a fault.
  if (/request is too large|larger than max/.test(message)) return new KvError('TooLarge', message);
  if (
    /deadline|unavailable|ECONNREFUSED|connect|No connection|closed|circuit|timed? ?out|14 UNAVAILABLE|4 DEADLINE|leader changed|no leader|proposal dropped/i.test(
      message,
    )
  ) {
    return new KvError('Unavailable', `etcd unavailable: ${message}`);
  }
  return new KvError('Internal', message);
}

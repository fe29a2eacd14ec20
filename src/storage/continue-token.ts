/**
 * List continue tokens, bit-compatible with upstream (k8s.io/apiserver pkg/storage/etcd3/store.go
 * `continueToken`): base64url without padding of `{"v":"meta.k8s.io/v1","rv":<rev>,"start":"<key>"}`
 * where `start` is the next key relative to the list prefix (last key + "\u0000").
 */
import { posix } from 'node:path';
import { StorageError } from './storage-error.js';
import { errorMessage } from '../api/error-message.js';

const TOKEN_VERSION = 'meta.k8s.io/v1';

export interface ContinueToken {
  /** The snapshot revision of the first chunk; -1 means "continue at latest" (after a 410). */
  readonly rv: number;
  /** The next key to read, relative to the list's key prefix. */
  readonly start: string;
}

/** Encode a token; `start` is relative to the list prefix. */
export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv, start })).toString('base64url');
}

/**
 * Decode a token. Throws StorageError('InvalidArgument') with upstream's messages
 * (`continue key is not valid: ...`) when it is malformed.
 */
export function decodeContinue(token: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalid(`${errorMessage(err)}`);
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (typeof parsed !== 'object' || parsed === null) throw invalid('malformed token');
  if (t.v !== TOKEN_VERSION) throw invalid(`server does not recognize this encoded version "${String(t.v ?? '')}"`);
  // Upstream decodes rv into an int64: fractions and out-of-range numbers (1e300) are invalid.
  if (typeof t.rv !== 'number' || !Number.isSafeInteger(t.rv) || t.rv === 0 || t.rv < -1) {
    throw invalid(`incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  }
  if (typeof t.start !== 'string' || t.start === '')
    throw invalid(`encoded start key empty (version ${TOKEN_VERSION})`);
  // Keep the key inside the list prefix (upstream path.Clean): `../` segments cannot climb out.
  const start = posix.normalize('/' + t.start).slice(1);
  if (start === '') throw invalid(`encoded start key empty (version ${TOKEN_VERSION})`);
  return { rv: t.rv, start };
}

function invalid(why: string): StorageError {
  return new StorageError('InvalidArgument', '', `continue key is not valid: ${why}`);
}

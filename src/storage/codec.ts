/**
 * JSON codec between API objects and stored values. Stored values never carry
 * `metadata.resourceVersion` or `metadata.selfLink` (upstream PrepareObjectForStorage); the
 * resourceVersion is filled in on read from the key's ModRevision.
 */
import { withOwn, type ApiObject } from '../api/object.js';
import { KvError, type KeyValue } from './kv/types.js';
import { StorageError } from './storage-error.js';
import { errorMessage } from '../api/error-message.js';

/** Serialize an object for storage, without resourceVersion and selfLink. */
export function encodeObject(obj: ApiObject): string {
  const metadata = obj.metadata;
  // A new object (a create) usually has neither: it is written as it is, without copies.
  if (metadata && metadata.resourceVersion === undefined && metadata.selfLink === undefined) return JSON.stringify(obj);
  const { resourceVersion: _rv, selfLink: _sl, ...meta } = metadata ?? {};
  return JSON.stringify(withOwn(obj, 'metadata', meta));
}

/**
 * Parse a stored value and stamp `metadata.resourceVersion` with `revision` (default the kv's
 * ModRevision). Throws StorageError('Internal') for a value that is not a JSON object.
 */
export function decodeObject(kv: KeyValue, revision = kv.modRevision): ApiObject {
  let obj: ApiObject;
  try {
    obj = JSON.parse(kv.value) as ApiObject;
  } catch (err) {
    throw new StorageError('Internal', kv.key, `unable to decode stored object at ${kv.key}: ${errorMessage(err)}`);
  }
  if (typeof obj !== 'object' || obj === null) {
    throw new StorageError('Internal', kv.key, `stored object at ${kv.key} is not an object`);
  }
  const meta = obj.metadata;
  // The freshly parsed metadata is stamped in place: a copy made by a spread that sees many
  // shapes can get a hidden class of its own in V8, which makes every later read of it slow.
  if (typeof meta === 'object' && meta !== null && !Array.isArray(meta)) meta.resourceVersion = String(revision);
  else obj.metadata = { ...(meta ?? {}), resourceVersion: String(revision) };
  return obj;
}

/** Translate a key-value failure into a StorageError for `key`. */
export function storageErrorOf(err: unknown, key: string): StorageError {
  if (err instanceof StorageError) return err;
  if (err instanceof KvError) {
    switch (err.code) {
      case 'Compacted':
        return new StorageError('Expired', key, err.message);
      case 'FutureRevision':
        return new StorageError('TooLargeResourceVersion', key, err.message);
      case 'Unavailable':
        return new StorageError('Unreachable', key, err.message);
      case 'TooLarge':
        return new StorageError('RequestTooLarge', key, err.message);
      case 'Internal':
        return new StorageError('Internal', key, err.message);
    }
  }
  return new StorageError('Internal', key, err instanceof Error ? err.message : String(err));
}

/**
 * Typed storage failures (upstream k8s.io/apiserver pkg/storage/errors.go). The registry
 * translates them into API errors once per verb; nothing above storage sees a KvError.
 */
export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  /** A resourceVersion or uid precondition did not hold. */
  | 'Conflict'
  /** The requested revision is compacted (continue token or exact list too old). */
  | 'Expired'
  /** The requested revision is in the future. */
  | 'TooLargeResourceVersion'
  /** A continue token or resourceVersion could not be parsed. */
  | 'InvalidArgument'
  /** The backend could not be reached in time. */
  | 'Unreachable'
  /** The write is over the backend's request size limit. */
  | 'RequestTooLarge'
  | 'Internal';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    /** The storage key concerned (without the prefix), when there is one. */
    readonly key: string,
    message: string,
    /** The current object for KeyExists / Conflict, when known. */
    readonly current?: unknown,
    /** For an expired continue token: a token that lists the remainder at the latest revision. */
    readonly continueToken?: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

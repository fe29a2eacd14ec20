/**
 * The options of the generic store's verbs: how a write runs (field validation, warnings, dry
 * run), how a strategy-free write is guarded, and what a list or a watch asks for (upstream
 * CreateOptions/UpdateOptions, ListOptions).
 */
import type { FieldValidation } from '../api/field-validation.js';
import type { Predicate } from './predicate.js';
import type { WriterInfo } from './access.js';
import type { MutateOptions } from './types.js';

/** How a write treats unknown fields, where it reports warnings, and whether it is a dry run. */
export interface WriteOptions {
  readonly fieldValidation?: FieldValidation;
  /** Receives `Warning` header texts (unknown fields under Warn). */
  readonly warnings?: string[];
  /**
   * `dryRun=All`: decode, default, validate and admit exactly as a real write and answer what
   * would be stored, but store nothing and keep nothing (upstream dryRun, 1.13+).
   */
  readonly dryRun?: boolean;
  /**
   * The field manager of a client's write (the `fieldManager` query, else derived from the
   * User-Agent): the write records an Update entry for it in `metadata.managedFields`. Absent
   * (server-side apply, which sets managedFields itself, and the server's own writes): the
   * object's managedFields are kept as they are.
   */
  readonly fieldManager?: string;
  /** Adds an annotation to the request's audit event (admission webhooks' auditAnnotations); absent: dropped. */
  readonly addAuditAnnotation?: (key: string, value: string) => void;
  /** Who writes (for admission); absent for the server's own writes. */
  readonly user?: WriterInfo;
  /** For a create: the name on the request's path, when it named one (server-side apply); see AdmissionAttributes.requestName. */
  readonly requestName?: string;
  /**
   * Strict-decoding problems of the request's text besides unknown fields (`duplicate field
   * "x"`, upstream's strict JSON decoder): 400 under Strict, warnings under Warn, as unknown
   * fields are.
   */
  readonly duplicateFields?: readonly string[];
  /**
   * How a strict decoding failure (unknown or duplicate fields under Strict) is answered, as
   * upstream's handlers answer it: `body` (create, update) 400 `<Kind> in version "<v>" cannot
   * be handled as a <Kind>: strict decoding error: ...` (handlers/rest.go transformDecodeError);
   * `patch` 422 Invalid on the field `patch` whose value is the patched object's JSON
   * (handlers/patch.go); absent: 400 `strict decoding error: ...` (server-side apply).
   */
  readonly strictErrorAs?: 'body' | 'patch';
}

/** Options of a write that bypasses the kind's strategy (deletion marks, binding): see types.ts. */
export type { MutateOptions };

export interface ListQuery {
  readonly predicate: Predicate;
  readonly limit?: number;
  readonly continueToken?: string;
  readonly resourceVersion?: string;
  /** How `resourceVersion` applies: '' (legacy: exact with a limit), Exact or NotOlderThan. */
  readonly resourceVersionMatch?: '' | 'Exact' | 'NotOlderThan';
}

/** What a watch asks for (upstream ListOptions with watch=true). */
export interface WatchQuery {
  readonly predicate: Predicate;
  /** Raw resourceVersion: '' / '0' = from now (with the current state first, by default). */
  readonly resourceVersion: string;
  /** Watch-list: the current state as ADDED first (undefined: the legacy rule by resourceVersion). */
  readonly sendInitialEvents?: boolean;
  /** Close the initial events with the annotated BOOKMARK (watch-list with bookmarks allowed). */
  readonly initialEventsEndBookmark?: boolean;
  /** Ends the watch when it aborts; `return()` on the iterator ends it as well (see ObjectWatchOptions.signal). */
  readonly signal?: AbortSignal;
  /** Called once every event up to a revision has been consumed (for bookmarks). */
  readonly onProgress?: (revision: number) => void;
}

/**
 * Query-parameter parsing shared by the verb handlers: list options, watch options and
 * DeleteOptions (query string or body), with upstream's 400 messages.
 */
import type { ApiObject } from '../../api/object.js';
import { recordOf } from '../../api/json.js';
import { badRequest, invalid } from '../../errors/api-error.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import type { DeleteOptions } from '../../registry/types.js';
import type { ListQuery } from '../../registry/store-options.js';
import { buildPredicate, withInitializerFilter } from '../../registry/predicate.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ApiContext } from '../context.js';
import { parseBool } from '../request-info.js';

/** One query value (the first when repeated). */
export function queryValue(ctx: ApiContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Every value of a query parameter, in order (none when absent). */
export function queryValues(ctx: ApiContext, name: string): string[] {
  const v = ctx.query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The options kind whose `dryRun` a write verb validates (upstream <Verb>Options). */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/**
 * Whether the request is a dry run: every `dryRun` value must be `All` (upstream
 * apimachinery ValidateDryRun); none means a real write. Throws ApiError 422 Invalid on
 * `<kind>.meta.k8s.io` as upstream's handlers answer, e.g.
 * `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"`.
 */
export function parseDryRun(values: readonly unknown[], kind: OptionsKind): boolean {
  if (values.every((v) => v === 'All')) return values.length > 0;
  const shown = `[]string{${values.map((v) => JSON.stringify(String(v))).join(', ')}}`;
  throw invalid(
    kind,
    '',
    [
      {
        reason: 'FieldValueNotSupported',
        field: 'dryRun',
        message: `Unsupported value: ${shown}: supported values: "All"`,
      },
    ],
    'meta.k8s.io',
  );
}

/** A non-negative integer query parameter, or undefined. Throws ApiError 400. */
export function queryInt(ctx: ApiContext, name: string): number | undefined {
  const v = queryValue(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: "${v}": must be an integer`);
  return Number(v);
}

/**
 * List options from the query, with the selection predicate for `store`. Throws ApiError 400
 * (malformed selector or number), 422 (combinations upstream's ValidateListOptions refuses).
 */
export function listQuery(ctx: ApiContext, store: GenericStore): ListQuery {
  const predicate = withInitializerFilter(
    buildPredicate(store.def, queryValue(ctx, 'labelSelector') ?? '', queryValue(ctx, 'fieldSelector') ?? ''),
    parseBool(queryValue(ctx, 'includeUninitialized')),
  );
  const limit = queryInt(ctx, 'limit');
  const query: ListQuery = {
    predicate,
    limit: limit && limit > 0 ? limit : undefined,
    continueToken: queryValue(ctx, 'continue') || undefined,
    resourceVersion: queryValue(ctx, 'resourceVersion') ?? '',
    resourceVersionMatch: (queryValue(ctx, 'resourceVersionMatch') ?? '') as ListQuery['resourceVersionMatch'],
  };
  validateListOptions(query, queryValue(ctx, 'sendInitialEvents') !== undefined);
  return query;
}

/** What a watch asks for beyond selectors (upstream ListOptions with watch=true). */
export interface WatchOptions {
  /** Bookmarks allowed (`allowWatchBookmarks`). */
  readonly bookmarks: boolean;
  /** Whether the current state comes first as ADDED (asked for, or the legacy rule for resourceVersion "" and "0"). */
  readonly sendInitialEvents: boolean;
  /**
   * Whether the initial events end with the BOOKMARK annotated `k8s.io/initial-events-end`: a
   * watch-list (sendInitialEvents=true) with bookmarks allowed, as upstream's cacher
   * isListWatchRequest; a legacy watch gets its initial events without it.
   */
  readonly initialEventsEndBookmark: boolean;
}

/**
 * Watch options from the query, with upstream's defaulting and checks (apimachinery
 * SetListOptionsDefaults and validateWatchOptions): `sendInitialEvents` needs
 * `resourceVersionMatch=NotOlderThan`, which in turn needs `sendInitialEvents` and no
 * `continue`; without them a watch from '' or '0' sends the initial events (the legacy rule).
 * Throws ApiError 422 on `ListOptions.meta.k8s.io`.
 */
export function watchOptions(ctx: ApiContext): WatchOptions {
  const raw = queryValue(ctx, 'sendInitialEvents');
  const match = queryValue(ctx, 'resourceVersionMatch') ?? '';
  const errs: FieldError[] = [];
  const forbid = (field: string, why: string) =>
    errs.push({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${why}` });
  if (raw !== undefined && match !== 'NotOlderThan')
    forbid('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  if (match) {
    if (raw === undefined)
      forbid(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    if (match !== 'NotOlderThan')
      errs.push({
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: `Unsupported value: ${JSON.stringify(match)}: supported values: "NotOlderThan"`,
      });
    if (queryValue(ctx, 'continue'))
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
  }
  if (errs.length) throw invalid('ListOptions', '', errs, 'meta.k8s.io');
  const rv = queryValue(ctx, 'resourceVersion') ?? '';
  const bookmarks = parseBool(queryValue(ctx, 'allowWatchBookmarks'));
  const asked = raw !== undefined && parseBool(raw);
  return {
    bookmarks,
    sendInitialEvents: raw === undefined ? rv === '' || rv === '0' : asked,
    initialEventsEndBookmark: asked && bookmarks,
  };
}

/**
 * The checks of upstream's ValidateListOptions for a list (apimachinery
 * pkg/apis/meta/internalversion/validation): resourceVersionMatch needs a resourceVersion, no
 * continue, a known value, and Exact not with "0"; sendInitialEvents is for watches. Throws
 * ApiError 422 on `ListOptions.meta.k8s.io`.
 */
function validateListOptions(q: ListQuery, sendInitialEvents: boolean): void {
  const errs: FieldError[] = [];
  const forbid = (field: string, why: string) =>
    errs.push({ reason: 'FieldValueForbidden', field, message: `Forbidden: ${why}` });
  const match = q.resourceVersionMatch ?? '';
  if (match) {
    if (!q.resourceVersion)
      forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided');
    if (q.continueToken) forbid('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided');
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push({
        reason: 'FieldValueNotSupported',
        field: 'resourceVersionMatch',
        message: `Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""`,
      });
    }
    if (match === 'Exact' && q.resourceVersion === '0')
      forbid('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  }
  if (sendInitialEvents) forbid('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  if (errs.length) throw invalid('ListOptions', '', errs, 'meta.k8s.io');
}

/**
 * DeleteOptions from the body when the request has one, else from the query string (upstream
 * delete.go: a body wins and the query is then not read). Throws ApiError 400 for a body that
 * is not DeleteOptions, 422 for an unsupported dryRun.
 */
export function deleteOptions(ctx: ApiContext, body: unknown): DeleteOptions {
  const opts: DeleteOptions = {};
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body))
      throw badRequest('the body of a delete request must be DeleteOptions');
    const b = body as ApiObject & Omit<DeleteOptions, 'dryRun'> & { dryRun?: unknown };
    if (b.kind && b.kind !== 'DeleteOptions') throw badRequest(`expected DeleteOptions, got ${b.kind}`);
    checkFieldTypes(b);
    if (b.gracePeriodSeconds !== undefined && b.gracePeriodSeconds !== null)
      opts.gracePeriodSeconds = b.gracePeriodSeconds;
    if (b.preconditions) opts.preconditions = b.preconditions;
    if (b.orphanDependents !== undefined && b.orphanDependents !== null) opts.orphanDependents = b.orphanDependents;
    if (b.propagationPolicy) opts.propagationPolicy = b.propagationPolicy;
    if (b.dryRun !== undefined && b.dryRun !== null) {
      if (!Array.isArray(b.dryRun)) throw badRequest('DeleteOptions.dryRun must be a list of strings');
      opts.dryRun = parseDryRun(b.dryRun, 'DeleteOptions');
    }
  }
  // Upstream delete.go reads the query only when there is no body.
  if (body !== undefined) return opts;
  const dryRun = queryValues(ctx, 'dryRun');
  if (dryRun.length) opts.dryRun = parseDryRun(dryRun, 'DeleteOptions');
  const grace = queryInt(ctx, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const orphan = queryValue(ctx, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = parseBool(orphan);
  const policy = queryValue(ctx, 'propagationPolicy');
  if (policy) opts.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  return opts;
}

/** The JSON type each DeleteOptions field must have (Go's decoder refuses others). */
const DELETE_OPTION_TYPES: Readonly<Record<string, string>> = {
  gracePeriodSeconds: 'number',
  orphanDependents: 'boolean',
  propagationPolicy: 'string',
  preconditions: 'object',
};

/** Throws ApiError 400 as upstream's decoder does when a DeleteOptions field has the wrong type. */
function checkFieldTypes(b: Record<string, unknown>): void {
  for (const [field, type] of Object.entries(DELETE_OPTION_TYPES)) {
    const v = b[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== type || (type === 'object' && Array.isArray(v))) {
      throw badRequest(
        `json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go struct field DeleteOptions.${field}`,
      );
    }
  }
  const pre = recordOf(b.preconditions);
  for (const f of ['uid', 'resourceVersion']) {
    if (pre[f] !== undefined && pre[f] !== null && typeof pre[f] !== 'string') {
      throw badRequest(
        `json: cannot unmarshal ${typeof pre[f]} into Go struct field Preconditions.preconditions.${f} of type string`,
      );
    }
  }
}

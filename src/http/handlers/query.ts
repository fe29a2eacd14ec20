/**
 * Query-parameter parsing shared by the verb handlers: list options, watch options and
 * DeleteOptions (query string or body), with upstream's 400 messages.
 */
import type { ApiObject } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';
import type { DeleteOptions } from '../../registry/deletion.js';
import type { ListQuery } from '../../registry/generic-store.js';
import { buildPredicate, withInitializerFilter } from '../../registry/predicate.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ApiContext } from '../context.js';
import { parseBool } from '../request-info.js';

/** One query value (the first when repeated). */
export function queryValue(ctx: ApiContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A non-negative integer query parameter, or undefined. Throws ApiError 400. */
export function queryInt(ctx: ApiContext, name: string): number | undefined {
  const v = queryValue(ctx, name);
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: "${v}": must be an integer`);
  return Number(v);
}

/** List options from the query, with the selection predicate for `store`. Throws ApiError 400. */
export function listQuery(ctx: ApiContext, store: GenericStore): ListQuery {
  const predicate = withInitializerFilter(
    buildPredicate(store.def, queryValue(ctx, 'labelSelector') ?? '', queryValue(ctx, 'fieldSelector') ?? ''),
    parseBool(queryValue(ctx, 'includeUninitialized')),
  );
  const limit = queryInt(ctx, 'limit');
  return {
    predicate,
    limit: limit && limit > 0 ? limit : undefined,
    continueToken: queryValue(ctx, 'continue') || undefined,
    resourceVersion: queryValue(ctx, 'resourceVersion') ?? '',
  };
}

/**
 * DeleteOptions from the body (if any) overlaid with the query string, as upstream accepts both.
 * Throws ApiError 400 for a body that is not DeleteOptions.
 */
export function deleteOptions(ctx: ApiContext, body: unknown): DeleteOptions {
  const opts: DeleteOptions = {};
  if (body !== undefined && body !== null) {
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of a delete request must be DeleteOptions');
    const b = body as ApiObject & DeleteOptions;
    if (b.kind && b.kind !== 'DeleteOptions') throw badRequest(`expected DeleteOptions, got ${b.kind}`);
    if (b.gracePeriodSeconds !== undefined && b.gracePeriodSeconds !== null) opts.gracePeriodSeconds = b.gracePeriodSeconds;
    if (b.preconditions) opts.preconditions = b.preconditions;
    if (b.orphanDependents !== undefined && b.orphanDependents !== null) opts.orphanDependents = b.orphanDependents;
    if (b.propagationPolicy) opts.propagationPolicy = b.propagationPolicy;
  }
  const grace = queryInt(ctx, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  const orphan = queryValue(ctx, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = parseBool(orphan);
  const policy = queryValue(ctx, 'propagationPolicy');
  if (policy) opts.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  return opts;
}

/**
 * Seats per request (upstream k8s.io/apiserver pkg/util/flowcontrol/request: width.go,
 * list_work_estimator.go with the object-count estimate of 1.33, mutating_work_estimator.go):
 *  - list (and a watch that sends initial events): one seat per 100 objects it processes
 *    (the resource's object count when served from the watch cache; twice the limit, or count
 *    plus limit with a selector, when read from storage; 1 for a named object), between 1 and
 *    the level's maximum (at most 10);
 *  - create, update, patch, delete: 1 seat, and when the resource has 10 or more watches, final
 *    seats of watches/10 (at most 10) held 5 ms x watches/10 / final seats after the write, the
 *    time its watch events take (serviceaccounts/token is exempt);
 *  - everything else: 1 seat.
 */
import type { WorkEstimate } from './queued-request.js';
import type { RequestDigest } from './types.js';

const OBJECTS_PER_SEAT = 100;
const WATCHES_PER_SEAT = 10;
const EVENT_ADDITIONAL_MS = 5;
const MAX_LIST_SEATS = 10;
const MAX_MUTATING_SEATS = 10;
const MINIMUM: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const MUTATING = new Set(['create', 'update', 'patch', 'delete']);

/** The list parameters that change a list's cost. */
export interface ListQuery {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
  readonly continue?: string;
  readonly limit?: number;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly sendInitialEvents?: boolean;
}

export interface WorkEstimatorSources {
  /** Objects stored of `group`/`resource` (watch cache), undefined when not known. */
  objectCount(group: string, resource: string): number | undefined;
  /** Open watches of `group`/`resource` on this server. */
  watchCount(group: string, resource: string): number;
}

/**
 * The work estimate of a request of `digest` with `query`, for a level whose largest request
 * is `levelMaxSeats` seats (0 = no level limit).
 */
export function estimateWork(
  sources: WorkEstimatorSources,
  digest: RequestDigest,
  query: ListQuery,
  levelMaxSeats: number,
): WorkEstimate {
  if (!digest.isResourceRequest) return MINIMUM;
  if (digest.verb === 'list' || (digest.verb === 'watch' && query.sendInitialEvents === true))
    return listWork(sources, digest, query, levelMaxSeats);
  if (MUTATING.has(digest.verb)) return mutatingWork(sources, digest, levelMaxSeats);
  return MINIMUM;
}

function listWork(
  sources: WorkEstimatorSources,
  digest: RequestDigest,
  query: ListQuery,
  levelMaxSeats: number,
): WorkEstimate {
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > MAX_LIST_SEATS ? MAX_LIST_SEATS : levelMaxSeats;
  const stored = sources.objectCount(digest.group, digest.resource);
  if (stored === undefined) return MINIMUM;
  const limit = query.limit && query.limit > 0 && query.limit < stored ? query.limit : stored;
  let processed: number;
  if (digest.name) processed = 1;
  else if (digest.verb === 'watch' || !fromStorage(query)) processed = stored;
  else if (query.labelSelector || query.fieldSelector) processed = stored + limit;
  else processed = 2 * limit;
  const seats = Math.ceil(processed / OBJECTS_PER_SEAT);
  return { initialSeats: Math.min(maxSeats, Math.max(1, seats)), finalSeats: 0, additionalLatencyMs: 0 };
}

/** Whether the list is read from storage rather than the watch cache (this server's rules, storage/cacher). */
function fromStorage(query: ListQuery): boolean {
  if (query.continue) return true;
  if (query.resourceVersionMatch === 'Exact') return true;
  return !query.resourceVersion && !!query.limit && query.limit > 0;
}

function mutatingWork(sources: WorkEstimatorSources, digest: RequestDigest, levelMaxSeats: number): WorkEstimate {
  if (digest.resource === 'serviceaccounts' && digest.subresource === 'token') return MINIMUM;
  const maxSeats = levelMaxSeats === 0 || levelMaxSeats > MAX_MUTATING_SEATS ? MAX_MUTATING_SEATS : levelMaxSeats;
  const watches = sources.watchCount(digest.group, digest.resource);
  if (watches < WATCHES_PER_SEAT) return { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  const wanted = Math.ceil(watches / WATCHES_PER_SEAT);
  const finalWorkMs = wanted * EVENT_ADDITIONAL_MS;
  const finalSeats = Math.min(wanted, maxSeats);
  return { initialSeats: 1, finalSeats, additionalLatencyMs: finalWorkMs / finalSeats };
}

/**
 * The watch handler (upstream k8s.io/apiserver pkg/endpoints/handlers/watch.go): a 200 chunked
 * response of newline-delimited JSON WatchEvents, or of protobuf WatchEvents each behind a
 * 4-byte big-endian length (`;stream=watch`), flushed per event. Errors after the stream
 * started arrive as one ERROR event carrying a Status, then the stream closes. The stream ends
 * silently at `timeoutSeconds` (default a random duration in [minRequestTimeout, 2x)). A client
 * that goes away aborts the storage watch at once. With `allowWatchBookmarks=true`, a BOOKMARK
 * (the kind with only metadata.resourceVersion) is sent every minute, and halfway through
 * short watches, whenever the watch has progressed past the last resourceVersion it sent.
 * Watch-list (KEP-3157, `sendInitialEvents=true&resourceVersionMatch=NotOlderThan`): the
 * current objects as ADDED, then a BOOKMARK annotated `k8s.io/initial-events-end: "true"` at
 * the list's revision when bookmarks are allowed, then changes.
 */
import { badRequest } from '../../errors/api-error.js';
import { buildPredicate, withInitializerFilter } from '../../registry/predicate.js';
import type { WatchIterator } from '../../registry/types.js';
import { parseBool } from '../request-info.js';
import type { ApiContext } from '../context.js';
import { contentTypeOf, isProtobuf, negotiate, negotiateWithoutProtobuf } from '../negotiation/media-types.js';
import { tableRequest } from '../negotiation/table.js';
import type { IncludeObject } from '../../api/table.js';
import { queryInt, queryValue, watchOptions } from './query.js';
import { PARTIAL_OBJECT } from './respond.js';
import { conversionRequest } from '../negotiation/conversion.js';
import type { VerbTarget } from './verb-target.js';
import { watchEncoder } from './watch-encoder.js';
import { WatchStream } from './watch-stream.js';
import { releaseQueued } from '../request-listener.js';
import type { GenericStore } from '../../registry/generic-store.js';

export interface WatchSettings {
  /** Seconds; watches without timeoutSeconds last a random [t, 2t). */
  readonly minRequestTimeoutSeconds: number;
  /**
   * Called with +1 / -1 and the watched kind's store as watches start and end (for
   * apiserver_registered_watchers). The -1 call is made by one function per store, so an open
   * watch holds nothing of its own for it.
   */
  readonly onWatchCount?: (delta: number, store: GenericStore) => void;
  /**
   * Called once per watch; the function it returns is called for each event written, with its
   * size in bytes (apiserver_watch_events_total / _sizes). The same function for watches of
   * the same kind (it is kept with the kind's encoders).
   */
  readonly watchEventRecorder?: (target: VerbTarget) => (bytes: number) => void;
}

/**
 * Start a watch: once the 200 is written, a {@link WatchStream} writes the events; it holds the
 * response and the storage watch but not the request's context, and is `ctx.state.stream`.
 * Throws ApiError before the stream starts.
 */
export async function handleWatch(ctx: ApiContext, t: VerbTarget, settings: WatchSettings): Promise<void> {
  const table = tableRequest(ctx.get('Accept'));
  const metadataOnly = table ? null : conversionRequest(ctx.get('Accept'), PARTIAL_OBJECT);
  const format = table
    ? 'json'
    : metadataOnly
      ? metadataOnly.format === 'yaml'
        ? 'json'
        : metadataOnly.format
      : (t.store.def.protobufServed === false ? negotiateWithoutProtobuf : negotiate)(ctx.get('Accept'), true);
  const include = (queryValue(ctx, 'includeObject') ?? 'Metadata') as IncludeObject;
  const fieldSelector = queryValue(ctx, 'fieldSelector') ?? '';
  if (t.name && fieldSelector)
    throw badRequest('both a name and a field selector provided; please provide one or the other.');
  const predicate = withInitializerFilter(
    buildPredicate(t.store.def, queryValue(ctx, 'labelSelector') ?? '', fieldSelector),
    parseBool(queryValue(ctx, 'includeUninitialized')),
  );
  const timeoutParam = queryInt(ctx, 'timeoutSeconds');
  const base = settings.minRequestTimeoutSeconds;
  const timeoutSeconds = timeoutParam && timeoutParam > 0 ? timeoutParam : base + Math.random() * base;
  const { bookmarks, sendInitialEvents, initialEventsEndBookmark } = watchOptions(ctx);
  // Pinned single-object selectors watch one key instead of the whole prefix.
  const pinnable = predicate.field.length === 1 && predicate.pinnedName && (t.namespace || !t.store.def.namespaced);
  const name = t.name || (pinnable ? (predicate.pinnedName as string) : '');
  let stream: WatchStream | undefined;
  const events = t.store.watch(t.namespace, name, {
    predicate,
    resourceVersion: queryValue(ctx, 'resourceVersion') ?? '',
    sendInitialEvents,
    initialEventsEndBookmark,
    // Only a watch that may send bookmarks follows the storage watch's progress.
    onProgress: bookmarks
      ? (rev) => {
          if (stream) stream.progress = rev;
        }
      : undefined,
  });
  const iterator: WatchIterator = events[Symbol.asyncIterator]();
  const representation = {
    format,
    table: table ? { apiVersion: table.apiVersion, include } : null,
    metadataOnly: metadataOnly ? `${metadataOnly.group}/${metadataOnly.version}` : null,
  };
  const encoder = watchEncoder(t.store, representation, ctx.state.codec, settings.watchEventRecorder?.(t));

  const res = ctx.res;
  ctx.respond = false;
  const headers: Record<string, string> = {
    'Content-Type': contentTypeOf(format, !table && (!metadataOnly || isProtobuf(format))),
    'Cache-Control': 'no-cache, private',
  };
  // HTTP/2 frames the stream itself and forbids the header.
  if (ctx.req.httpVersionMajor < 2) headers['Transfer-Encoding'] = 'chunked';
  res.writeHead(200, headers);
  res.flushHeaders();
  // Koa's error handler holds the request's context, and has nothing left to do.
  releaseQueued(res);
  stream = new WatchStream(res, iterator, encoder);
  ctx.state.stream = stream;
  if (settings.onWatchCount) {
    settings.onWatchCount(1, t.store);
    stream.onEnd(watchEnded(settings.onWatchCount, t.store));
  }
  const timeoutMs = timeoutSeconds * 1000;
  stream.start({ timeoutMs, bookmarkMs: bookmarks ? Math.min(60_000, Math.max(1000, timeoutMs / 2)) : 0 });
}

/** One `onWatchCount(-1, store)` function per store (a store belongs to one server's registry). */
const endedByStore = new WeakMap<GenericStore, () => void>();

function watchEnded(count: NonNullable<WatchSettings['onWatchCount']>, store: GenericStore): () => void {
  let ended = endedByStore.get(store);
  if (!ended) endedByStore.set(store, (ended = () => count(-1, store)));
  return ended;
}

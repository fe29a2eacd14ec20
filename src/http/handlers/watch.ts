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
import { once } from 'node:events';
import type { ApiObject } from '../../api/object.js';
import type { WatchEvent, WatchIterator } from '../../registry/types.js';
import type { ServerResponse } from 'node:http';
import { ApiError, badRequest, internalError } from '../../errors/api-error.js';
import { buildPredicate, withInitializerFilter } from '../../registry/predicate.js';
import { parseBool } from '../request-info.js';
import type { ApiContext } from '../context.js';
import { contentTypeOf, isProtobuf, negotiate } from '../negotiation/media-types.js';
import { tableRequest } from '../negotiation/table.js';
import { buildTable, type IncludeObject } from '../../api/table.js';
import { queryInt, queryValue, watchOptions } from './query.js';
import { PARTIAL_OBJECT, partialObjectMetadata, withSelfLink } from './respond.js';
import { conversionRequest } from '../negotiation/conversion.js';
import type { VerbTarget } from './verbs.js';

export interface WatchSettings {
  /** Seconds; watches without timeoutSeconds last a random [t, 2t). */
  readonly minRequestTimeoutSeconds: number;
  /** Called with +1 / -1 as watches start and end (for apiserver_registered_watchers). */
  readonly onWatchCount?: (delta: number, target: VerbTarget) => void;
  /**
   * Called once per watch; the function it returns is called for each event written, with its
   * size in bytes (apiserver_watch_events_total / _sizes).
   */
  readonly watchEventRecorder?: (target: VerbTarget) => (bytes: number) => void;
}

/**
 * Encoded events by event and representation. Storage hands every watcher of a change the same
 * event object (the watch cache shares them), so each change is encoded once per
 * representation however many watchers receive it (upstream cachingObject).
 */
const encoded = new WeakMap<object, Encodings>();

/** One event's revision (parsed once) and its bytes by representation. */
interface Encodings {
  readonly revision: number;
  readonly bytes: Map<string, Buffer>;
}

/**
 * Let the request's Koa context go while a watch streams: Koa registers its error handler
 * (which holds the context) with on-finished until the response ends, and a watch may last an
 * hour. Once the 200 is written that handler has nothing left to do (it cannot answer after
 * the headers, and the watch writes its own ERROR event), so its queue in on-finished's
 * listener (`__onFinished.queue`, on-finished 2.x) is emptied; the socket listeners stay.
 */
function releaseContext(res: ServerResponse): void {
  const listener = (res as unknown as { __onFinished?: { queue: unknown[] | null } }).__onFinished;
  if (listener?.queue) listener.queue = [];
}

/** Events written together at most (bytes), when a watch has several waiting. */
const MAX_BATCH_BYTES = 256 * 1024;

const toBytes = (framed: string | Buffer): Buffer => (typeof framed === 'string' ? Buffer.from(framed) : framed);

/**
 * Start a watch: once the 200 is written, the events are written by {@link pump}, which holds
 * the response and the storage watch but not the request's context; `ctx.state.stream`
 * resolves when the stream ends. Throws ApiError before the stream starts.
 */
export async function handleWatch(ctx: ApiContext, t: VerbTarget, settings: WatchSettings): Promise<void> {
  const table = tableRequest(ctx.get('Accept'));
  const metadataOnly = table ? null : conversionRequest(ctx.get('Accept'), PARTIAL_OBJECT);
  const format = table ? 'json' : metadataOnly ? (metadataOnly.format === 'yaml' ? 'json' : metadataOnly.format) : negotiate(ctx.get('Accept'), true);
  const codec = ctx.state.codec;
  // Metadata-only watches carry every object (bookmarks too, not ERROR Statuses) as PartialObjectMetadata.
  const convert = (object: Record<string, unknown>) =>
    metadataOnly && object.kind !== 'Status' ? partialObjectMetadata(object as unknown as ApiObject, `${metadataOnly.group}/${metadataOnly.version}`) : object;
  // One event: a JSON line, or a length-framed protobuf WatchEvent.
  const frame = (type: string, raw: Record<string, unknown>): string | Buffer => {
    const object = convert(raw);
    return isProtobuf(format) && codec.canEncode(object.kind) ? codec.encodeWatchEvent(type, object) : JSON.stringify({ type, object }) + '\n';
  };
  const include = (queryValue(ctx, 'includeObject') ?? 'Metadata') as IncludeObject;
  const representation = `${format}|${table ? `${table.apiVersion}|${include}` : ''}|${metadataOnly ? `${metadataOnly.group}/${metadataOnly.version}` : ''}`;
  const fieldSelector = queryValue(ctx, 'fieldSelector') ?? '';
  if (t.name && fieldSelector) throw badRequest('both a name and a field selector provided; please provide one or the other.');
  const predicate = withInitializerFilter(
    buildPredicate(t.store.def, queryValue(ctx, 'labelSelector') ?? '', fieldSelector),
    parseBool(queryValue(ctx, 'includeUninitialized')),
  );
  const timeoutParam = queryInt(ctx, 'timeoutSeconds');
  const base = settings.minRequestTimeoutSeconds;
  const timeoutSeconds = timeoutParam && timeoutParam > 0 ? timeoutParam : base + Math.random() * base;

  const abort = new AbortController();
  const { bookmarks, sendInitialEvents } = watchOptions(ctx);
  let progress = 0;
  let sentRevision = 0;
  // Pinned single-object selectors watch one key instead of the whole prefix.
  const pinnable = predicate.field.length === 1 && predicate.pinnedName && (t.namespace || !t.store.def.namespaced);
  const name = t.name || (pinnable ? (predicate.pinnedName as string) : '');
  const events = t.store.watch(t.namespace, name, {
    predicate,
    resourceVersion: queryValue(ctx, 'resourceVersion') ?? '',
    sendInitialEvents,
    initialEventsEndBookmark: sendInitialEvents && bookmarks,
    signal: abort.signal,
    onProgress: (rev) => {
      progress = rev;
    },
  });
  const iterator: WatchIterator = events[Symbol.asyncIterator]();

  const res = ctx.res;
  ctx.respond = false;
  const headers: Record<string, string> = { 'Content-Type': contentTypeOf(format, !table && (!metadataOnly || isProtobuf(format))), 'Cache-Control': 'no-cache, private' };
  // HTTP/2 frames the stream itself and forbids the header.
  if (ctx.req.httpVersionMajor < 2) headers['Transfer-Encoding'] = 'chunked';
  res.writeHead(200, headers);
  res.flushHeaders();
  releaseContext(res);
  const timer = setTimeout(() => abort.abort(), timeoutSeconds * 1000);
  const bookmarkTimer = bookmarks
    ? setInterval(() => {
        if (progress <= sentRevision || res.writableEnded) return;
        sentRevision = progress;
        const object = { kind: t.store.def.kind, apiVersion: t.store.apiVersion, metadata: { resourceVersion: String(progress) } };
        res.write(frame('BOOKMARK', object));
      }, Math.min(60_000, Math.max(1000, (timeoutSeconds * 1000) / 2)))
    : undefined;
  const onClose = () => abort.abort();
  res.once('close', onClose);
  settings.onWatchCount?.(1, t);
  const sent = settings.watchEventRecorder?.(t);
  /** The bytes of one event in this watch's representation (shared by every watch that asks for it). */
  const bytesOf = (ev: WatchEvent): Buffer => {
    if (ev.type === 'BOOKMARK') {
      sentRevision = Math.max(sentRevision, Number(ev.object.metadata.resourceVersion ?? 0));
      return toBytes(frame(ev.type, ev.object as unknown as Record<string, unknown>));
    }
    let encodings = encoded.get(ev);
    if (!encodings) encoded.set(ev, (encodings = { revision: Number(ev.object.metadata.resourceVersion ?? 0), bytes: new Map() }));
    if (encodings.revision > sentRevision) sentRevision = encodings.revision;
    const byRepresentation = encodings.bytes;
    let bytes = byRepresentation.get(representation);
    if (bytes === undefined) {
      const object = withSelfLink(t.store, ev.object);
      // kubectl get -w asks for Table rows; each event then carries a one-row Table.
      const payload = table ? buildTable(t.store.def.printer, [object], { resourceVersion: object.metadata.resourceVersion }, table.apiVersion, include) : object;
      // Bytes, so that writing them to many sockets does not encode the string each time.
      bytes = toBytes(frame(ev.type, payload as unknown as Record<string, unknown>));
      byRepresentation.set(representation, bytes);
    }
    sent?.(bytes.length);
    return bytes;
  };
  ctx.state.stream = pump(res, iterator, abort, bytesOf, (status) => frame('ERROR', status), () => {
    clearTimeout(timer);
    clearInterval(bookmarkTimer);
    res.off('close', onClose);
    settings.onWatchCount?.(-1, t);
  });
}

/**
 * Write the events of `iterator` to `res` until either ends or `abort` fires, batching those
 * that piled up; an error becomes one ERROR event. Where the source pushes (see
 * WatchIterator.whenReady), events are written from its dispatch while the socket takes them;
 * otherwise, and after backpressure, they are awaited one `next()` at a time. Calls `cleanup`
 * and ends the response at the end; never rejects.
 */
async function pump(
  res: ServerResponse,
  iterator: WatchIterator,
  abort: AbortController,
  bytesOf: (ev: WatchEvent) => Buffer,
  errorFrame: (status: Record<string, unknown>) => string | Buffer,
  cleanup: () => void,
): Promise<void> {
  const signal = abort.signal;
  try {
    for (;;) {
      // Every source ends its iteration when the signal aborts (the client left, the timeout).
      const next = await iterator.next();
      if (next.done || signal.aborted) break;
      const writable = res.write(withWaiting(iterator, bytesOf(next.value), bytesOf));
      if (!writable) await waitDrain(res, signal);
      else if (iterator.whenReady) await pushed(res, iterator, bytesOf);
    }
  } catch (err) {
    if (!signal.aborted) {
      const status = (err instanceof ApiError ? err : internalError(String((err as Error)?.message ?? err))).toStatus();
      res.write(errorFrame(status as unknown as Record<string, unknown>));
    }
  } finally {
    abort.abort();
    void iterator.return?.();
    cleanup();
    if (!res.writableEnded) res.end();
  }
}

/** `first` and the events already waiting behind it (up to MAX_BATCH_BYTES), as one write. */
function withWaiting(iterator: WatchIterator, first: Buffer, bytesOf: (ev: WatchEvent) => Buffer): Buffer {
  let more = iterator.poll?.();
  if (!more) return first;
  const parts = [first];
  let size = first.length;
  for (; more; more = size < MAX_BATCH_BYTES ? iterator.poll?.() : undefined) {
    const bytes = bytesOf(more);
    parts.push(bytes);
    size += bytes.length;
  }
  return Buffer.concat(parts, size);
}

/**
 * Write pushed events as the source wakes this watch, synchronously, until the socket pushes
 * back or the source asks for `next()`; resolves then (rejects with an encoding failure).
 */
function pushed(res: ServerResponse, iterator: WatchIterator, bytesOf: (ev: WatchEvent) => Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const wake = (): void => {
      try {
        // (The cache closes the watcher when the signal aborts; writableEnded is the cheap check.)
        const ev = res.writableEnded ? undefined : iterator.poll?.();
        if (ev && !res.write(withWaiting(iterator, bytesOf(ev), bytesOf))) return resolve();
        if (!iterator.whenReady!(wake)) resolve();
      } catch (err) {
        reject(err);
      }
    };
    if (!iterator.whenReady!(wake)) resolve();
  });
}

async function waitDrain(res: ServerResponse, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await once(res, 'drain', { signal }).catch(() => undefined);
}

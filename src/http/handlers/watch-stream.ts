/**
 * The open part of a watch (upstream k8s.io/apiserver pkg/endpoints/handlers/watch.go
 * ServeHTTP): once the 200 is written, events go from the storage watch to the response until
 * either ends, the client leaves, or the timeout fires; an error becomes one ERROR event, then
 * the stream ends. Events that piled up are written together.
 *
 * One object per watch, with its methods on the prototype, holds the response, the storage
 * watch and the timers, and nothing of the request's context: a watch may stay open for an
 * hour and thousands may be open. Where the source pushes (WatchIterator.whenReady), an idle
 * watch waits with no promise pending, and events are written from the source's dispatch;
 * otherwise, and after backpressure, they are awaited one `next()` at a time.
 */
import type { ServerResponse } from 'node:http';
import { ApiError, internalError } from '../../errors/api-error.js';
import type { WatchEvent, WatchIterator } from '../../registry/types.js';
import type { StreamedResponse } from '../context.js';
import { sharedEncodings, type WatchEncoder } from './watch-encoder.js';
import { whenClosed } from '../request-listener.js';
import { DeadlineQueue } from './deadline-queue.js';
import { errorMessage } from '../../api/error-message.js';

/** Events written together at most (bytes), when a watch has several waiting. */
const MAX_BATCH_BYTES = 256 * 1024;

export interface WatchStreamOptions {
  /** How long the watch lasts (ms). */
  readonly timeoutMs: number;
  /** Every how many ms a BOOKMARK may be sent (0: bookmarks not allowed). */
  readonly bookmarkMs: number;
}

/** One open watch: its response, its storage watch and its timers (see the file comment). */
export class WatchStream implements StreamedResponse {
  /** The revision the storage watch has reached with every event consumed (for bookmarks). */
  progress = 0;
  /** The newest revision written (an event's or a bookmark's). */
  private sent = 0;
  private ended = false;
  /** The keys of this watch's deadlines in TIMEOUTS and BOOKMARKS (-1: none). */
  private timeoutKey = -1;
  private bookmarkKey = -1;
  /** Every how many ms a BOOKMARK may be sent (0: not allowed). */
  private bookmarkMs = 0;
  /** Called at the end (an array of its exact length: a few, kept for the watch's life). */
  private ends: readonly (() => void)[] = [];
  /** The source's and the socket's wake-up (one function for the watch's life). */
  private readonly wake = (): void => this.step();

  constructor(
    private readonly res: ServerResponse,
    private readonly iterator: WatchIterator,
    private readonly encoder: WatchEncoder,
  ) {}

  /** Start writing (the 200 and its headers are written); ends by itself. */
  start(opts: WatchStreamOptions): void {
    this.timeoutKey = TIMEOUTS.add(this, opts.timeoutMs);
    this.bookmarkMs = opts.bookmarkMs;
    if (this.bookmarkMs > 0) this.bookmarkKey = BOOKMARKS.add(this, this.bookmarkMs);
    whenClosed(this.res, stopStream.bind(undefined, this));
    this.step();
  }

  onEnd(fn: () => void): void {
    if (this.ended) fn();
    else this.ends = this.ends.concat(fn);
  }

  /** End the watch now (the client left or the timeout fired): the storage watch is closed. */
  stop(): void {
    if (this.ended) return;
    this.ended = true;
    TIMEOUTS.delete(this, this.timeoutKey);
    BOOKMARKS.delete(this, this.bookmarkKey);
    this.res.off('drain', this.wake);
    this.iterator.return?.().catch(() => undefined);
    if (!this.res.writableEnded) this.res.end();
    const ends = this.ends;
    this.ends = [];
    for (const fn of ends) fn();
  }

  /** The bookmark time came: send one if there is progress, and wait for the next. */
  bookmarkDue(): void {
    if (this.ended) return;
    this.bookmarkKey = BOOKMARKS.add(this, this.bookmarkMs);
    this.bookmark();
  }

  /** Send a BOOKMARK at the storage watch's progress, if it went past what was sent. */
  private bookmark(): void {
    if (this.progress <= this.sent || this.res.writableEnded) return;
    this.sent = this.progress;
    const store = this.encoder.store;
    const object = {
      kind: store.def.kind,
      apiVersion: store.apiVersion,
      metadata: { resourceVersion: String(this.progress) },
    };
    this.res.write(this.encoder.frame('BOOKMARK', object));
  }

  /** Write what the source has ready, then wait for more in the cheapest way it offers. */
  private step(): void {
    const it = this.iterator;
    try {
      while (!this.ended) {
        const ev = this.res.writableEnded ? undefined : it.poll?.();
        if (ev) {
          if (!this.res.write(this.batch(ev))) return this.awaitDrain();
          continue;
        }
        if (it.whenReady?.(this.wake)) return;
        it.next().then(
          (r) => this.received(r),
          (err: unknown) => this.fail(err),
        );
        return;
      }
    } catch (err) {
      this.fail(err);
    }
  }

  private received(r: IteratorResult<WatchEvent>): void {
    if (this.ended) return;
    if (r.done) return this.stop();
    try {
      if (!this.res.write(this.batch(r.value))) return this.awaitDrain();
    } catch (err) {
      return this.fail(err);
    }
    this.step();
  }

  private awaitDrain(): void {
    this.res.once('drain', this.wake);
  }

  /** The watch failed: one ERROR event with the Status, then the end. */
  private fail(err: unknown): void {
    if (this.ended) return;
    if (!this.res.writableEnded) {
      const status = (err instanceof ApiError ? err : internalError(errorMessage(err))).toStatus();
      this.res.write(this.encoder.frame('ERROR', { ...status }));
    }
    this.stop();
  }

  /** `first` and the events already waiting behind it (up to MAX_BATCH_BYTES), as one write. */
  private batch(first: WatchEvent): Buffer {
    const bytes = this.bytesOf(first);
    let more = this.iterator.poll?.();
    if (!more) return bytes;
    const parts = [bytes];
    let size = bytes.length;
    for (; more; more = size < MAX_BATCH_BYTES ? this.iterator.poll?.() : undefined) {
      const next = this.bytesOf(more);
      parts.push(next);
      size += next.length;
    }
    return Buffer.concat(parts, size);
  }

  private bytesOf(ev: WatchEvent): Buffer {
    const shared = sharedEncodings(ev);
    const revision = shared ? shared.revision : Number(ev.object.metadata.resourceVersion ?? 0);
    if (revision > this.sent) this.sent = revision;
    return this.encoder.encode(ev, shared);
  }
}

function stopStream(stream: WatchStream): void {
  stream.stop();
}

/** When open watches time out, and when they may send their next bookmark. */
const TIMEOUTS = new DeadlineQueue<WatchStream>(stopStream);
const BOOKMARKS = new DeadlineQueue<WatchStream>((stream) => stream.bookmarkDue());

/** The deadlines (timeouts and bookmark times) open watches of this process hold: for diagnostics and tests. */
export function pendingWatchDeadlines(): number {
  return TIMEOUTS.size + BOOKMARKS.size;
}

/**
 * The body of a compact-JSON list, written from each item's kept encoding (respond.ts
 * respondList): the list's head up to `"items":[`, the items separated by commas, then `]}`.
 * A body of up to {@link LIST_BATCH_BYTES} is one Buffer that Koa sends. A larger one is written
 * in batches of about that size, as upstream hands a streamed list to the connection
 * (k8s.io/apiserver pkg/endpoints/handlers/responsewriters/writers.go: streamingBatchBufferBytes,
 * 128 KiB, the smallest size on the plateau of its sweep): the first bytes leave once the first
 * batch is copied, no buffer of the whole list is made, and its length is still sent as
 * Content-Length. {@link BATCHES_AHEAD} batches stay queued on the connection, each written
 * as an earlier one is sent: waiting for the queue to drain before copying the next batch (as a
 * piped stream does) left HTTP/2 with nothing to send for a moment once per batch, which showed
 * on a client with small flow-control windows.
 */
import type { ApiContext } from '../context.js';

/** Bytes per batch, and the largest body written whole. */
export const LIST_BATCH_BYTES = 128 * 1024;
/** Batches written to the connection and not yet sent, at most. */
export const BATCHES_AHEAD = 4;

const COMMA = 0x2c;
const CLOSE = Buffer.from(']}');

/** The length in bytes of the body of `head` and `items`. */
export function listBodyLength(head: Buffer, items: readonly Buffer[]): number {
  let size = head.length + CLOSE.length + Math.max(0, items.length - 1);
  for (const item of items) size += item.length;
  return size;
}

/** The whole body as one Buffer of `size` bytes (see {@link listBodyLength}). */
export function wholeListBody(head: Buffer, items: readonly Buffer[], size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let at = head.copy(out, 0);
  for (let i = 0; i < items.length; i++) {
    if (i) out[at++] = COMMA;
    at += items[i].copy(out, at);
  }
  CLOSE.copy(out, at);
  return out;
}

/**
 * The body's bytes in batches of about `batch` bytes: a batch ends with the first part that
 * reaches the size, so an item larger than `batch` goes out whole with what came before it.
 * The parts are the head, the items (each after a comma but the first) and the closing `]}`.
 */
export function* listBatches(head: Buffer, items: readonly Buffer[], batch = LIST_BATCH_BYTES): Generator<Buffer> {
  const last = items.length + 1;
  const partOf = (p: number) => (p === 0 ? head : p === last ? CLOSE : items[p - 1]);
  for (let first = 0; first <= last;) {
    let end = first;
    let size = 0;
    while (end <= last && size < batch) {
      size += partOf(end).length + (end > 1 && end < last ? 1 : 0);
      end++;
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let p = first; p < end; p++) {
      if (p > 1 && p < last) out[at++] = COMMA;
      const part = partOf(p);
      out.set(part, at);
      at += part.length;
    }
    yield out;
    first = end;
  }
}

/** What {@link writeBatches} needs of a response (Node's HTTP/1.1 and HTTP/2 responses). */
export interface BatchSink {
  write(chunk: Buffer, sent: (err?: Error | null) => void): unknown;
  end(): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Write `batches` to `res` and end it, keeping up to `ahead` batches queued: the next is
 * copied when an earlier one has been sent. Stops when the response is closed (client gone).
 */
export function writeBatches(res: BatchSink, batches: Iterator<Buffer>, ahead = BATCHES_AHEAD): void {
  let queued = 0;
  let done = false;
  res.once('close', () => (done = true));
  const pump = (): void => {
    while (!done && queued < ahead) {
      const next = batches.next();
      if (next.done) {
        done = true;
        res.end();
        return;
      }
      queued++;
      res.write(next.value, sent);
    }
  };
  const sent = (err?: Error | null): void => {
    queued--;
    if (!err) pump();
  };
  pump();
}

/**
 * Answer `head` and `items` as the body with its Content-Length (status and headers set on
 * `ctx` before): one Buffer up to {@link LIST_BATCH_BYTES}, sent by Koa; else batches written
 * here ({@link writeBatches}, Koa writing nothing more). A request whose audit event records
 * the response object (level RequestResponse) gets the Buffer whatever its size, since the audit
 * reads the body once the handler is done (middleware/audit.ts).
 */
export function sendListBody(ctx: ApiContext, head: Buffer, items: readonly Buffer[]): void {
  const size = listBodyLength(head, items);
  if (size <= LIST_BATCH_BYTES || ctx.state.audit?.config.level === 'RequestResponse') {
    ctx.body = wholeListBody(head, items, size);
    return;
  }
  ctx.length = size;
  ctx.respond = false;
  if (ctx.method === 'HEAD') ctx.res.end();
  else writeBatches(ctx.res as BatchSink, listBatches(head, items));
}

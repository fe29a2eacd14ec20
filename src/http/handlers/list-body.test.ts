import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ApiContext } from '../context.js';
import {
  BATCHES_AHEAD,
  LIST_BATCH_BYTES,
  listBatches,
  listBodyLength,
  sendListBody,
  wholeListBody,
  writeBatches,
} from './list-body.js';

const head = Buffer.from('{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[');
const item = (i: number, bytes: number) =>
  Buffer.from(JSON.stringify({ metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(bytes) } }));
const items = (count: number, bytes = 1024) => Array.from({ length: count }, (_, i) => item(i, bytes));

/** A response that records writes and completes each only when `send()` is called, as a connection sending in turn. */
class FakeResponse extends EventEmitter {
  readonly written: Buffer[] = [];
  readonly pending: ((err?: Error | null) => void)[] = [];
  ended = false;
  write(chunk: Buffer, cb: (err?: Error | null) => void): boolean {
    this.written.push(chunk);
    this.pending.push(cb);
    return false;
  }
  end(): void {
    this.ended = true;
  }
  /** Complete the oldest pending write. */
  send(): void {
    this.pending.shift()?.();
  }
}

/** A context with what sendListBody touches. */
function fakeContext(opts: { audit?: string; method?: string } = {}) {
  const res = new FakeResponse();
  const ctx = {
    state: opts.audit ? { audit: { config: { level: opts.audit } } } : {},
    method: opts.method ?? 'GET',
    res,
  };
  return ctx as unknown as ApiContext & { length?: number; res: FakeResponse };
}

describe('list bodies', () => {
  it('writes the head, the items comma-separated and the closing brackets, whole or in batches alike', () => {
    for (const count of [0, 1, 2, 300]) {
      const list = items(count, 1000);
      const size = listBodyLength(head, list);
      const whole = wholeListBody(head, list, size);
      expect(whole.length).toBe(size);
      const parsed = JSON.parse(whole.toString());
      expect(parsed).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7' } });
      expect(parsed.items.map((i: any) => i.metadata.name)).toEqual(list.map((_, i) => `cm-${i}`));
      expect(Buffer.concat([...listBatches(head, list, 4096)]).equals(whole)).toBe(true);
    }
  });

  it('cuts batches of about the batch size, an item larger than a batch in one piece', () => {
    const list = [item(0, 100), item(1, 10_000), ...items(40, 500)];
    const batches = [...listBatches(head, list, 4096)];
    expect(batches.length).toBeGreaterThan(4);
    // The first batch holds the head, the small item and the large one whole.
    expect(batches[0].length).toBeGreaterThan(10_000);
    for (const batch of batches.slice(1, -1)) {
      expect(batch.length).toBeGreaterThanOrEqual(4096);
      expect(batch.length).toBeLessThan(4096 + 600);
    }
    expect(JSON.parse(Buffer.concat(batches).toString()).items).toHaveLength(42);
  });

  it('keeps a few batches queued, writing the next as one is sent, then ends', () => {
    const list = items(300);
    const res = new FakeResponse();
    writeBatches(res, listBatches(head, list, 8192), 3);
    expect(res.written).toHaveLength(3);
    res.send();
    expect(res.written).toHaveLength(4);
    while (res.pending.length) res.send();
    expect(res.ended).toBe(true);
    expect(Buffer.concat(res.written).equals(wholeListBody(head, list, listBodyLength(head, list)))).toBe(true);
  });

  it('stops writing once the response is closed (the client went away)', () => {
    const res = new FakeResponse();
    writeBatches(res, listBatches(head, items(300), 8192), 2);
    res.emit('close');
    res.send();
    res.pending.shift()?.(new Error('closed'));
    expect(res.written).toHaveLength(2);
    expect(res.ended).toBe(false);
  });

  it('answers a small list as one Buffer for Koa, a large one in batches with its Content-Length', () => {
    const small = fakeContext();
    sendListBody(small, head, [item(0, 100)]);
    expect(Buffer.isBuffer(small.body)).toBe(true);
    expect(small.respond).toBeUndefined();

    const list = items(600);
    const size = listBodyLength(head, list);
    expect(size).toBeGreaterThan(LIST_BATCH_BYTES);
    const large = fakeContext();
    sendListBody(large, head, list);
    expect(large.body).toBeUndefined();
    expect(large.respond).toBe(false);
    expect(large.length).toBe(size);
    expect(large.res.written).toHaveLength(BATCHES_AHEAD);

    const head_ = fakeContext({ method: 'HEAD' });
    sendListBody(head_, head, list);
    expect(head_.length).toBe(size);
    expect(head_.res.written).toHaveLength(0);
    expect(head_.res.ended).toBe(true);
  });

  it('answers a large list whole when its audit event records the response object', () => {
    for (const [level, whole] of [
      ['RequestResponse', true],
      ['Request', false],
      ['Metadata', false],
    ] as const) {
      const ctx = fakeContext({ audit: level });
      sendListBody(ctx, head, items(200));
      expect(Buffer.isBuffer(ctx.body)).toBe(whole);
    }
  });
});

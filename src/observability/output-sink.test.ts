// An output that fails drops what it cannot write and says so through the callback, never by
// throwing: a full disk (/dev/full), a stream whose reader has gone (EPIPE), and a reader that
// stopped reading (bounded queue). A file that fails and then works again gets the later lines.
import { closeSync, openSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputSink } from './output-sink.js';

/** Collects what each write was told. */
function outcomes(): { done: (err?: Error | null) => void; errors: (string | undefined)[] } {
  const errors: (string | undefined)[] = [];
  return { errors, done: (err) => errors.push(err ? ((err as NodeJS.ErrnoException).code ?? err.message) : undefined) };
}

describe('OutputSink', () => {
  it('drops lines a full disk refuses (ENOSPC) without throwing', () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const sink = new OutputSink({
        fd,
        stream: () => expect.unreachable('a device is written synchronously') as never,
      });
      const { done, errors } = outcomes();
      for (let i = 0; i < 3; i++) expect(() => sink.write(`line ${i}\n`, done)).not.toThrow();
      expect(errors).toEqual(['ENOSPC', 'ENOSPC', 'ENOSPC']);
    } finally {
      closeSync(fd);
    }
  });

  it('writes a file synchronously, and drops without throwing once its descriptor fails (EBADF)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ck-sink-'));
    const fd = openSync(join(dir, 'out.log'), 'w');
    const sink = new OutputSink({ fd, stream: () => expect.unreachable() as never });
    const { done, errors } = outcomes();
    sink.write('first ✓\n', done);
    sink.write(Buffer.from('second\n'), done);
    expect(readFileSync(join(dir, 'out.log'), 'utf8')).toBe('first ✓\nsecond\n');
    closeSync(fd);
    sink.write('third\n', done);
    expect(errors).toEqual([undefined, undefined, 'EBADF']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops writes to a stream whose reader has gone (EPIPE), with no uncaught error', async () => {
    const broken = new Writable({
      write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    const sink = new OutputSink({ stream: () => broken });
    const { done, errors } = outcomes();
    sink.write('one\n', done);
    await new Promise((r) => setImmediate(r));
    sink.write('two\n', done);
    await new Promise((r) => setImmediate(r));
    expect(errors).toEqual(['EPIPE', 'EPIPE']);
  });

  it('queues at most maxQueuedBytes for a reader that stopped reading, then drops at once (EAGAIN)', () => {
    const taken: string[] = [];
    const stalled = new Writable({ write: (chunk, _e, _cb) => taken.push(String(chunk)) }); // never calls back
    const sink = new OutputSink({ stream: () => stalled, maxQueuedBytes: 100 });
    const { done, errors } = outcomes();
    for (let i = 0; i < 5; i++) sink.write(`${String(i).repeat(39)}\n`, done); // 40 bytes each
    // 0 is being written, 1 and 2 wait (120 bytes queued); 3 and 4 are dropped.
    expect(errors).toEqual(['EAGAIN', 'EAGAIN']);
    expect(taken).toHaveLength(1);
  });
});

// The audit log when its output fails: events are dropped and counted, the failure reported at
// once and then at most once a minute (the rest at close), nothing thrown; a line cut short by a
// full disk is ended before the next; a path that is not a regular file is never rotated away.
import { lstat, mkdtemp, open, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { newEvent, type AuditEvent } from './event.js';
import { LogBackend } from './log-backend.js';
import { RotatingFile } from './rotating-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-audit-fail-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const event = (): AuditEvent =>
  newEvent({
    level: 'Metadata',
    auditID: 'id-1',
    requestURI: '/api/v1/pods',
    verb: 'list',
    user: { name: 'alice', uid: 'u1', groups: [] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'test',
    objectRef: { resource: 'pods', apiVersion: 'v1' },
  });
const turn = () => new Promise((r) => setImmediate(r));

describe('LogBackend when writes fail', () => {
  it('drops events a full disk refuses, reporting the first at once and the rest at close', async () => {
    const reports: [string | undefined, number][] = [];
    const backend = new LogBackend({
      path: '/dev/full',
      format: 'json',
      onError: (err, n) => reports.push([(err as NodeJS.ErrnoException).code, n]),
    });
    await backend.open();
    for (let i = 0; i < 5; i++) {
      expect(() => backend.processEvent(event())).not.toThrow();
      await backend.flush();
      await turn();
    }
    expect(reports).toEqual([['ENOSPC', 1]]);
    await backend.close();
    expect(reports).toEqual([
      ['ENOSPC', 1],
      ['ENOSPC', 4],
    ]);
  });

  it('drops events standard output refuses (EPIPE) without throwing, and reports them', async () => {
    const gone = new Writable({
      write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    const reports: [string | undefined, number][] = [];
    const backend = new LogBackend({
      path: '-',
      format: 'json',
      stdout: gone,
      onError: (err, n) => reports.push([(err as NodeJS.ErrnoException).code, n]),
    });
    backend.processEvent(event());
    await backend.flush();
    await turn();
    backend.processEvent(event());
    backend.processEvent(event());
    await backend.close();
    await turn();
    expect(reports[0]).toEqual(['EPIPE', 1]);
    expect(reports.reduce((sum, [, n]) => sum + n, 0)).toBe(3);
  });
});

describe('RotatingFile when writes fail', () => {
  it('ends a line cut short by a full disk with a newline before the next line', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { writev: (bufs: Buffer[]) => Promise<{ bytesWritten: number }> };
    await probe.close();
    const real = proto.writev;
    // The disk takes the first line and half the second (a short write), then is full.
    vi.spyOn(proto, 'writev')
      .mockImplementationOnce(async function (this: unknown, bufs: Buffer[]) {
        return real.call(this, [bufs[0], bufs[1].subarray(0, 5)]);
      })
      .mockImplementationOnce(async () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      });
    const file = new RotatingFile({ filename: join(dir, 'audit.log'), maxSizeBytes: 0, maxBackups: 0, maxAgeDays: 0 });
    await file.open();
    await expect(
      file.writeLines([Buffer.from('first line\n'), Buffer.from('second line\n'), Buffer.from('third line\n')]),
    ).rejects.toThrow(/ENOSPC/);
    await file.writeLines([Buffer.from('fourth line\n')]);
    await file.close();
    expect(await readFile(join(dir, 'audit.log'), 'utf8')).toBe('first line\nsecon\nfourth line\n');
  });

  it('never renames a path that is not a regular file (here a link to /dev/null), however much is written', async () => {
    const path = join(dir, 'audit.log');
    await symlink('/dev/null', path);
    const file = new RotatingFile({ filename: path, maxSizeBytes: 20, maxBackups: 0, maxAgeDays: 0 });
    await file.open();
    for (let i = 0; i < 5; i++) await file.writeLines([Buffer.from(`line ${i} of ten bytes\n`.slice(0, 15))]);
    await file.close();
    expect(await readdir(dir)).toEqual(['audit.log']);
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
  });
});

// The audit log backend: lumberjack-style rotation (names, size limit, maxBackups, maxAge),
// the json and legacy line formats, standard output and the bounded queue.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventString, newEvent, sourceIPs, type AuditEvent } from './event.js';
import { LogBackend } from './log-backend.js';
import { backupName, backupTime, RotatingFile, WriteTooLargeError } from './rotating-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-audit-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A clock that moves one second per call, from 2026-11-24T15:30:00Z. */
function ticking(): () => Date {
  let t = Date.UTC(2026, 10, 24, 15, 30, 0);
  return () => new Date((t += 1000));
}
const line = (n: number, size = 40) => Buffer.from(`${String(n).padEnd(size - 1, '.')}\n`);

describe('backup names', () => {
  it('are lumberjack names: <name>-<UTC 2006-01-02T15-04-05.000><ext>', () => {
    const t = new Date(Date.UTC(2026, 10, 24, 15, 30, 0, 7));
    expect(backupName('/var/log/audit.log', t)).toBe('/var/log/audit-2026-11-24T15-30-00.007.log');
    expect(backupName('/var/log/audit', t)).toBe('/var/log/audit-2026-11-24T15-30-00.007');
    expect(backupTime('/var/log/audit.log', 'audit-2026-11-24T15-30-00.007.log')).toEqual(t);
    expect(backupTime('/var/log/audit.log', 'audit.log')).toBeUndefined();
    expect(backupTime('/var/log/audit.log', 'other-2026-11-24T15-30-00.007.log')).toBeUndefined();
  });
});

describe('RotatingFile', () => {
  it('rotates between lines when the next would pass the size limit', async () => {
    const file = join(dir, 'audit.log');
    const f = new RotatingFile({ filename: file, maxSizeBytes: 100, maxBackups: 0, maxAgeDays: 0, now: ticking() });
    await f.writeLines([1, 2, 3, 4, 5].map((n) => line(n)));
    await f.close();
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(['audit-2026-11-24T15-30-01.000.log', 'audit-2026-11-24T15-30-02.000.log', 'audit.log']);
    expect(await readFile(join(dir, names[0]), 'utf8')).toBe(line(1).toString() + line(2).toString());
    expect(await readFile(file, 'utf8')).toBe(line(5).toString());
  });

  it('appends to an existing file, and rotates one that is already full when opened', async () => {
    const file = join(dir, 'audit.log');
    await writeFile(file, line(0));
    const f = new RotatingFile({ filename: file, maxSizeBytes: 100, maxBackups: 0, maxAgeDays: 0, now: ticking() });
    await f.writeLines([line(1)]);
    await f.close();
    expect(await readFile(file, 'utf8')).toBe(line(0).toString() + line(1).toString());
    await writeFile(file, line(0, 100));
    const g = new RotatingFile({ filename: file, maxSizeBytes: 100, maxBackups: 0, maxAgeDays: 0, now: ticking() });
    await g.open();
    await g.close();
    expect((await readdir(dir)).length).toBe(2);
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('keeps at most maxBackups backups, the newest', async () => {
    const file = join(dir, 'audit.log');
    const f = new RotatingFile({ filename: file, maxSizeBytes: 40, maxBackups: 2, maxAgeDays: 0, now: ticking() });
    await f.writeLines([1, 2, 3, 4, 5].map((n) => line(n)));
    await f.close();
    const names = (await readdir(dir)).sort();
    // Each rotation reads the clock twice (the name, then the age cut-off): rotations at :01, :03, :05, :07.
    expect(names).toEqual(['audit-2026-11-24T15-30-05.000.log', 'audit-2026-11-24T15-30-07.000.log', 'audit.log']);
    expect(await readFile(join(dir, names[1]), 'utf8')).toBe(line(4).toString());
  });

  it('removes backups older than maxAge days, by the time in their names', async () => {
    const file = join(dir, 'audit.log');
    await writeFile(join(dir, 'audit-2026-11-01T00-00-00.000.log'), 'old\n');
    await writeFile(join(dir, 'audit-2026-11-23T00-00-00.000.log'), 'recent\n');
    await writeFile(join(dir, 'unrelated-2020-01-01T00-00-00.000.log'), 'kept\n');
    const f = new RotatingFile({ filename: file, maxSizeBytes: 40, maxBackups: 0, maxAgeDays: 7, now: ticking() });
    await f.writeLines([line(1), line(2)]);
    await f.close();
    expect((await readdir(dir)).sort()).toEqual([
      'audit-2026-11-23T00-00-00.000.log',
      'audit-2026-11-24T15-30-01.000.log',
      'audit.log',
      'unrelated-2020-01-01T00-00-00.000.log',
    ]);
  });

  it('refuses a line larger than the limit (lumberjack) but writes the others', async () => {
    const file = join(dir, 'audit.log');
    const f = new RotatingFile({ filename: file, maxSizeBytes: 50, maxBackups: 0, maxAgeDays: 0 });
    await expect(f.writeLines([line(1), line(2, 60), line(3)])).rejects.toThrow(WriteTooLargeError);
    await f.close();
    const names = (await readdir(dir)).sort();
    expect(names).toHaveLength(2);
    expect(await readFile(join(dir, names[0]), 'utf8')).toBe(line(1).toString());
    expect(await readFile(file, 'utf8')).toBe(line(3).toString());
  });
});

function event(over: Partial<AuditEvent> = {}): AuditEvent {
  const ev = newEvent({
    level: 'Metadata',
    auditID: 'id-1',
    requestURI: '/api/v1/namespaces/default/pods?limit=1',
    verb: 'list',
    user: { name: 'alice', uid: 'u1', groups: ['devs', 'system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl',
    objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
  });
  return Object.assign(ev, over);
}

describe('LogBackend', () => {
  it('writes one JSON Event per line in upstream field order', async () => {
    const file = join(dir, 'sub', 'audit.log');
    const backend = new LogBackend({ path: file, format: 'json' });
    await backend.open();
    backend.processEvent(event({ stage: 'ResponseComplete', responseStatus: { metadata: {}, code: 200 } }));
    await backend.close();
    const [text] = (await readFile(file, 'utf8')).split('\n');
    expect(Object.keys(JSON.parse(text))).toEqual([
      'kind',
      'apiVersion',
      'level',
      'auditID',
      'stage',
      'requestURI',
      'verb',
      'user',
      'sourceIPs',
      'userAgent',
      'objectRef',
      'responseStatus',
      'requestReceivedTimestamp',
      'stageTimestamp',
    ]);
    expect(text).toContain('"user":{"username":"alice","uid":"u1","groups":["devs","system:authenticated"]}');
    expect(text).toContain('"responseStatus":{"metadata":{},"code":200}');
    expect(JSON.parse(text).requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('writes the legacy line, to standard output with `-`', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const backend = new LogBackend({ path: '-', format: 'legacy', stdout: out });
    const ev = event({ requestReceivedTimestamp: '2026-11-24T15:30:00.120000Z' });
    backend.processEvent(ev);
    await backend.close();
    expect(Buffer.concat(chunks).toString()).toBe(
      '2026-11-24T15:30:00.12Z AUDIT: id="id-1" stage="RequestReceived" ip="127.0.0.1" method="list" user="alice" groups="\\"devs\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl" namespace="default" uri="/api/v1/namespaces/default/pods?limit=1" response="<deferred>"\n',
    );
    expect(eventString(event({ user: {}, responseStatus: { metadata: {}, code: 401 } }))).toContain(
      'user="<none>" groups="<none>"',
    );
  });

  it('drops and reports events beyond its buffer', async () => {
    const errors: string[] = [];
    const backend = new LogBackend({
      path: join(dir, 'audit.log'),
      format: 'json',
      bufferSize: 2,
      onError: (err) => errors.push(err.message),
    });
    for (let i = 0; i < 3; i++) backend.processEvent(event());
    await backend.close();
    expect(errors).toEqual(['audit buffer queue blocked']);
    expect((await readFile(join(dir, 'audit.log'), 'utf8')).trim().split('\n')).toHaveLength(2);
  });
});

describe('sourceIPs', () => {
  it('lists X-Forwarded-For, then X-Real-Ip and the connection unless already last (upstream SourceIPs)', () => {
    expect(sourceIPs(undefined, undefined, '::ffff:10.0.0.1')).toEqual(['10.0.0.1']);
    expect(sourceIPs('1.1.1.1, bogus, 2.2.2.2', '2.2.2.2', '2.2.2.2')).toEqual(['1.1.1.1', '2.2.2.2']);
    expect(sourceIPs('1.1.1.1', '3.3.3.3', '10.0.0.1')).toEqual(['1.1.1.1', '3.3.3.3', '10.0.0.1']);
  });
});

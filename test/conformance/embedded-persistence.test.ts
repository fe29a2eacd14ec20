// The embedded store keeps everything across a close and reopen of its directory: keys,
// revisions, history at old revisions, compaction, leases and the watch log; and one directory
// serves one open store at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedKvStore } from '../../src/storage/kv/embedded/embedded-store.js';
import { KvError, prefixEnd, type KvEvent } from '../../src/storage/kv/types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ck-embedded-persist-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function collect(kv: EmbeddedKvStore, fromRevision: number, count: number): Promise<KvEvent[]> {
  const abort = new AbortController();
  const events: KvEvent[] = [];
  for await (const res of kv.watch({ prefix: '/r/', fromRevision, signal: abort.signal })) {
    events.push(...res.events);
    if (events.length >= count) break;
  }
  abort.abort();
  return events;
}

describe('embedded store across a restart', () => {
  it('keeps keys, revisions, history and the watch log', async () => {
    const first = new EmbeddedKvStore(dir);
    const a = await first.create('/r/a', 'one');
    const b = await first.create('/r/b', 'two');
    const a2 = await first.update('/r/a', 'three', a.revision);
    await first.delete('/r/b', b.revision);
    const before = await first.range({ start: '/r/', end: prefixEnd('/r/') });
    await first.close();

    const second = new EmbeddedKvStore(dir);
    expect(await second.currentRevision()).toBe(a2.revision + 1);
    const after = await second.range({ start: '/r/', end: prefixEnd('/r/') });
    expect(after).toEqual(before);
    expect(after.kvs).toEqual([
      expect.objectContaining({
        key: '/r/a',
        value: 'three',
        createRevision: a.revision,
        modRevision: a2.revision,
        version: 2,
      }),
    ]);
    // At the revision of the first write only /r/a existed, with its first value.
    const old = await second.range({ start: '/r/', end: prefixEnd('/r/'), revision: a.revision });
    expect(old.kvs.map((kv) => [kv.key, kv.value])).toEqual([['/r/a', 'one']]);
    // A watch from the first revision replays all four writes, in order, with previous values.
    const events = await collect(second, a.revision, 4);
    expect(events.map((e) => [e.type, e.kv.key, e.kv.value, e.prevKv?.value])).toEqual([
      ['put', '/r/a', 'one', undefined],
      ['put', '/r/b', 'two', undefined],
      ['put', '/r/a', 'three', 'one'],
      ['delete', '/r/b', '', 'two'],
    ]);
    // Writes carry on from the kept revision.
    expect((await second.create('/r/c', 'four')).revision).toBe(a2.revision + 2);
    await second.close();
  });

  it('keeps compaction: older revisions stay unreadable and unwatchable', async () => {
    const first = new EmbeddedKvStore(dir);
    const a = await first.create('/r/a', '1');
    const a2 = await first.update('/r/a', '2', a.revision);
    await first.compact(a2.revision);
    await first.close();

    const second = new EmbeddedKvStore(dir);
    await expect(second.range({ start: '/r/a', revision: a.revision })).rejects.toMatchObject({
      code: 'Compacted',
      compactRevision: a2.revision,
    });
    await expect(collect(second, a.revision, 1)).rejects.toBeInstanceOf(KvError);
    expect((await second.range({ start: '/r/a', revision: a2.revision })).kvs[0].value).toBe('2');
    await expect(second.compact(a2.revision)).rejects.toMatchObject({ code: 'Compacted' });
    await second.close();
  });

  it('keeps writes batched with a refused compaction', async () => {
    const kv = new EmbeddedKvStore(dir);
    // Issued in one turn, these share one LMDB transaction.
    const [created, refused] = await Promise.allSettled([
      kv.create('/r/x', '1'),
      kv.compact(1_000_000),
      kv.create('/r/y', '2'),
    ]);
    expect(created.status).toBe('fulfilled');
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'FutureRevision' } });
    await kv.close();
    const again = new EmbeddedKvStore(dir);
    expect((await again.range({ start: '/r/', end: prefixEnd('/r/') })).kvs.map((k) => k.key)).toEqual([
      '/r/x',
      '/r/y',
    ]);
    await again.close();
  });

  it('expires a lease granted before the restart, deleting its keys', async () => {
    const first = new EmbeddedKvStore(dir);
    const lease = await first.grantLease(1);
    await first.create('/r/leased', 'x', lease);
    await first.close();

    const second = new EmbeddedKvStore(dir);
    expect((await second.range({ start: '/r/leased' })).kvs).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1300));
    expect((await second.range({ start: '/r/leased' })).kvs).toHaveLength(0);
    await second.close();
  });

  it('refuses a second open of a directory in use, and takes over after close', async () => {
    const first = new EmbeddedKvStore(dir);
    expect(() => new EmbeddedKvStore(dir)).toThrow(/in use by process \d+; one server per --data-dir/);
    await first.close();
    const second = new EmbeddedKvStore(dir);
    await second.close();
  });
});

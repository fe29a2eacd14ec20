import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import { CacheWatcher } from './cache-watcher.js';
import type { CacheEvent } from './watch-cache.js';

const obj = (name: string, rv: number, label = 'x'): ApiObject => ({
  metadata: { name, resourceVersion: String(rv), labels: { l: label } },
});
const change = (
  name: string,
  revision: number,
  object: ApiObject | null,
  prev: ApiObject | null = null,
): CacheEvent => ({ key: `cms/ns/${name}`, revision, object, prev, receivedAt: Date.now() });

interface Setup {
  capacity?: number;
  softCapacity?: number;
  fromRevision?: number;
  predicate?: (obj: ApiObject) => boolean;
  onTerminate?: () => void;
}

function watcher(setup: Setup = {}) {
  let closed = 0;
  const policy = {
    capacity: setup.capacity ?? 100,
    softCapacity: setup.softCapacity ?? 50,
    graceMs: 1000,
    closed: () => closed++,
    terminated: setup.onTerminate,
  };
  const w = new CacheWatcher(policy, 'cms/ns/', setup.fromRevision ?? 0, setup.predicate);
  return { w, closedCalls: () => closed };
}

describe('CacheWatcher', () => {
  it('hands an offered event to a waiting consumer, queues the rest in order, and poll drains only what waits', async () => {
    const { w } = watcher();
    const first = w.next();
    w.offer(change('a', 1, obj('a', 1)));
    expect(await first).toEqual({ done: false, value: { type: 'ADDED', object: obj('a', 1) } });
    expect(w.poll()).toBeUndefined();
    w.offer(change('a', 2, obj('a', 2), obj('a', 1)));
    w.offer(change('a', 3, null, obj('a', 2)));
    expect(w.poll()?.type).toBe('MODIFIED');
    expect(w.poll()).toMatchObject({ type: 'DELETED', object: { metadata: { resourceVersion: '3' } } });
    expect(w.poll()).toBeUndefined();
  });

  it('applies selector transitions and skips revisions it already covers', async () => {
    const { w } = watcher({ predicate: (o) => o.metadata.labels?.l === 'in', fromRevision: 5 });
    w.offer(change('a', 4, obj('a', 4, 'in')));
    w.offer(change('a', 6, obj('a', 6, 'in'), obj('a', 4, 'out')));
    w.offer(change('a', 7, obj('a', 7, 'out'), obj('a', 6, 'in')));
    w.offer(change('b', 8, obj('b', 8, 'out')));
    expect([w.poll()?.type, w.poll()?.type, w.poll()]).toEqual(['ADDED', 'DELETED', undefined]);
  });

  it('delivers what is queued after close, then ends; an error closes with a throw', async () => {
    const { w, closedCalls } = watcher();
    w.offer(change('a', 1, obj('a', 1)));
    w.close();
    expect(closedCalls()).toBe(1);
    expect((await w.next()).done).toBe(false);
    expect((await w.next()).done).toBe(true);
    const failing = watcher().w;
    const pending = failing.next();
    failing.close(new Error('storage lost'));
    await expect(pending).rejects.toThrow('storage lost');
  });

  it('terminates a consumer past its capacity: queued events are dropped and the stream ends', async () => {
    let terminated = 0;
    const { w, closedCalls } = watcher({ capacity: 3, softCapacity: 3, onTerminate: () => terminated++ });
    for (let i = 1; i <= 4; i++) w.offer(change(`o${i}`, i, obj(`o${i}`, i)));
    expect(terminated).toBe(1);
    expect(closedCalls()).toBe(1);
    expect((await w.next()).done).toBe(true);
  });

  it('return() ends the watch for a consumer that stops reading', async () => {
    const { w, closedCalls } = watcher();
    w.offer(change('a', 1, obj('a', 1)));
    await w.return();
    expect(closedCalls()).toBe(1);
    expect((await w.next()).done).toBe(true);
  });
});

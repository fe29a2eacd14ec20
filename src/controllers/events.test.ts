/** recordLegacyEvent through the per-component correlator, against an in-memory Event store. */
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiObject } from '../api/object.js';
import { ApiError } from '../errors/api-error.js';
import type { GenericStore } from '../registry/generic-store.js';
import { legacyEvent, recordLegacyEvent, resetEventCorrelators, setEventSpamFilter } from './events.js';

const logger = pino({ level: 'silent' });
const user = { name: 'system:serviceaccount:kube-system:test-controller', groups: [] };

/** The Event store's create and update, counting the writes. */
function fakeEvents() {
  const stored = new Map<string, ApiObject>();
  let rv = 0;
  const writes = { create: 0, update: 0 };
  const store = {
    async create(ns: string, body: ApiObject) {
      writes.create++;
      const key = `${ns}/${body.metadata.name}`;
      if (stored.has(key)) throw new ApiError(409, 'AlreadyExists', key);
      const obj = { ...body, metadata: { ...body.metadata, resourceVersion: String(++rv) } };
      stored.set(key, obj);
      return obj;
    },
    async update(ns: string, name: string, fn: (old: ApiObject) => ApiObject) {
      writes.update++;
      const old = stored.get(`${ns}/${name}`);
      if (!old) throw new ApiError(404, 'NotFound', name);
      const obj = { ...fn(old), metadata: { ...old.metadata, resourceVersion: String(++rv) } };
      stored.set(`${ns}/${name}`, obj);
      return obj;
    },
  };
  return { store: store as unknown as GenericStore, stored, writes };
}

const job: ApiObject = { metadata: { name: 'pi', namespace: 'default', uid: 'u1', resourceVersion: '7' } };
const ref = { apiVersion: 'batch/v1', kind: 'Job' };
const record = (store: GenericStore, message: string, component = 'job-controller', reason = 'SuccessfulCreate') =>
  recordLegacyEvent(store, legacyEvent(job, ref, component, { type: 'Normal', reason, message }), user, logger);

describe('recordLegacyEvent', () => {
  beforeEach(() => resetEventCorrelators());

  it('writes a first event as a new Event with count 1', async () => {
    const { store, stored } = fakeEvents();
    await record(store, 'Created pod: pi-abcde');
    const [ev] = [...stored.values()];
    expect(ev).toMatchObject({ count: 1, reason: 'SuccessfulCreate', source: { component: 'job-controller' } });
    expect(ev!.firstTimestamp).toBe(ev!.lastTimestamp);
  });

  it('counts a repeat on the first Event (a patch of count, lastTimestamp, message)', async () => {
    const { store, stored, writes } = fakeEvents();
    await record(store, 'Created pod: pi-abcde');
    const first = [...stored.values()][0]!;
    await Promise.all([record(store, 'Created pod: pi-abcde'), record(store, 'Created pod: pi-abcde')]);
    expect(stored.size).toBe(1);
    expect(writes).toEqual({ create: 1, update: 2 });
    const ev = stored.get(`default/${first.metadata.name}`)!;
    expect(ev.count).toBe(3);
    expect(ev.firstTimestamp).toBe(first.firstTimestamp);
  });

  it('creates the Event anew when the counted one was deleted', async () => {
    const { store, stored, writes } = fakeEvents();
    await record(store, 'Created pod: pi-abcde');
    const name = [...stored.keys()][0]!;
    stored.delete(name);
    await record(store, 'Created pod: pi-abcde');
    expect(writes).toEqual({ create: 2, update: 1 });
    expect(stored.get(name)).toMatchObject({ count: 2 });
  });

  it('combines the 10th and later similar events with different messages into one Event', async () => {
    const { store, stored } = fakeEvents();
    for (let i = 0; i < 12; i++) await record(store, `Created pod: pi-${i}`);
    const events = [...stored.values()];
    expect(events).toHaveLength(10);
    const combined = events.filter((e) => String(e.message).startsWith('(combined from similar events): '));
    expect(combined).toHaveLength(1);
    expect(combined[0]).toMatchObject({ count: 3, message: '(combined from similar events): Created pod: pi-11' });
  });

  it('keeps each source component apart', async () => {
    const { store, stored } = fakeEvents();
    await record(store, 'same', 'job-controller');
    await record(store, 'same', 'cronjob-controller');
    expect([...stored.values()].map((e) => e.count)).toEqual([1, 1]);
  });

  it('drops events about one object past the burst of 25 from one source, once the spam filter is on', async () => {
    const { store, writes } = fakeEvents();
    for (let i = 0; i < 30; i++) await record(store, 'again', 'job-controller', `Reason${i}`);
    expect(writes.create).toBe(30);
    resetEventCorrelators();
    setEventSpamFilter(true);
    try {
      for (let i = 0; i < 30; i++) await record(store, 'again', 'job-controller', `Other${i}`);
    } finally {
      setEventSpamFilter(false);
    }
    expect(writes.create).toBe(30 + 25);
  });
});

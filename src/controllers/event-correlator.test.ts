/**
 * Upstream's table tests of the event correlator (client-go tools/record/events_cache_test.go):
 * TestEventAggregatorByReasonFunc, TestEventAggregatorByReasonMessageFunc, TestEventCorrelator
 * (9 scenarios), TestEventSpamFilter (3 cases), with upstream's IntervalClock (every reading of
 * the clock advances it by the interval).
 */
import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../api/object.js';
import {
  aggregateByReason,
  aggregateMessage,
  DEFAULT_AGGREGATE_INTERVAL_SECONDS,
  DEFAULT_AGGREGATE_MAX_EVENTS,
  DEFAULT_SPAM_BURST,
  EventCorrelator,
  LruCache,
  type CoreEvent,
  type EventClock,
} from './event-correlator.js';

type Ref = NonNullable<CoreEvent['involvedObject']>;

function intervalClock(intervalSeconds: number): EventClock {
  let t = Date.parse('2026-01-01T00:00:00Z');
  return { now: () => (t += intervalSeconds * 1000) };
}

const makeRef = (kind: string, name: string, namespace: string): Ref => ({
  kind,
  name,
  namespace,
  uid: 'C934D34AFB20242',
  apiVersion: 'version',
  fieldPath: 'spec.containers{mycontainer}',
});

function makeEvent(reason: string, message: string, involvedObject: Ref): CoreEvent {
  const time = rfc3339(new Date());
  return {
    metadata: {},
    reason,
    message,
    involvedObject,
    source: { component: 'kubelet', host: 'kublet.node1' },
    count: 1,
    firstTimestamp: time,
    lastTimestamp: time,
    type: 'Normal',
  };
}

const makeEvents = (n: number, template: CoreEvent) => Array.from({ length: n }, () => template);
const makeUniqueEvents = (n: number) =>
  Array.from({ length: n }, (_, i) => makeEvent(`reason-${i}`, `message-${i}`, makeRef('Pod', `pod-${i}`, `ns-${i}`)));
const makeSimilarEvents = (n: number, template: CoreEvent, prefix: string) =>
  makeEvents(n, template).map((e, i) => ({ ...e, message: `${prefix}-${i}-${e.message}` }));
const setCount = (e: CoreEvent, count: number): CoreEvent => ({ ...e, count });

/** upstream validateEvent: timestamps set, equal iff count 1, name prefixed, the rest equal. */
function validateEvent(actual: CoreEvent, expected: CoreEvent): void {
  expect(actual.firstTimestamp).toBeTruthy();
  expect(actual.lastTimestamp).toBeTruthy();
  if ((expected.count ?? 0) > 1) expect(actual.firstTimestamp).not.toBe(actual.lastTimestamp);
  else expect(actual.firstTimestamp).toBe(actual.lastTimestamp);
  expect(actual.metadata.name ?? '').toMatch(new RegExp(`^${expected.metadata.name ?? ''}`));
  const strip = (e: CoreEvent) => {
    const { firstTimestamp: _f, lastTimestamp: _l, apiVersion: _a, kind: _k, metadata, ...rest } = e;
    return { ...rest, metadata: { namespace: metadata.namespace ?? '' } };
  };
  expect(strip(actual)).toEqual(strip(expected));
}

describe('EventAggregatorByReasonFunc', () => {
  it('aggregates two events that vary only by message', () => {
    const e1 = makeEvent('end-of-world', 'it was fun', makeRef('Pod', 'pod1', 'other'));
    const e2 = makeEvent('end-of-world', 'it was awful', makeRef('Pod', 'pod1', 'other'));
    const e3 = makeEvent('nevermind', 'it was a bug', makeRef('Pod', 'pod1', 'other'));
    const [agg1, local1] = aggregateByReason(e1);
    const [agg2, local2] = aggregateByReason(e2);
    const [agg3] = aggregateByReason(e3);
    expect(agg1).toBe(agg2);
    expect(local1).not.toBe(local2);
    expect(agg1).not.toBe(agg3);
  });

  it('EventAggregatorByReasonMessageFunc prefixes the message', () => {
    const e = makeEvent('end-of-world', 'it was fun', makeRef('Pod', 'pod1', 'other'));
    expect(aggregateMessage(e)).toBe('(combined from similar events): it was fun');
  });
});

describe('EventCorrelator (TestEventCorrelator)', () => {
  const ref = makeRef('Pod', 'my-pod', 'my-ns');
  const firstEvent = makeEvent('first', 'i am first', ref);
  const duplicateEvent = makeEvent('duplicate', 'me again', ref);
  const uniqueEvent = makeEvent('unique', 'snowflake', ref);
  const similarEvent = makeEvent('similar', 'similar message', { ...ref, fieldPath: 'spec.containers{container1}' });
  const aggregateEvent = makeEvent(similarEvent.reason!, aggregateMessage(similarEvent), similarEvent.involvedObject!);
  const similarButDifferentContainerEvent: CoreEvent = {
    ...similarEvent,
    involvedObject: { ...similarEvent.involvedObject, fieldPath: 'spec.containers{container2}' },
  };
  const scenarios: Record<
    string,
    { previous: CoreEvent[]; next: CoreEvent; expected?: CoreEvent; intervalSeconds: number; skip?: boolean }
  > = {
    'create-a-single-event': { previous: [], next: firstEvent, expected: setCount(firstEvent, 1), intervalSeconds: 5 },
    'the-same-event-should-just-count': {
      previous: makeEvents(1, duplicateEvent),
      next: duplicateEvent,
      expected: setCount(duplicateEvent, 2),
      intervalSeconds: 5,
    },
    'the-same-event-should-just-count-even-if-more-than-aggregate': {
      previous: makeEvents(DEFAULT_AGGREGATE_MAX_EVENTS, duplicateEvent),
      next: duplicateEvent,
      expected: setCount(duplicateEvent, DEFAULT_AGGREGATE_MAX_EVENTS + 1),
      intervalSeconds: 30,
    },
    'the-same-event-is-spam-if-happens-too-frequently': {
      previous: makeEvents(DEFAULT_SPAM_BURST + 1, duplicateEvent),
      next: duplicateEvent,
      skip: true,
      intervalSeconds: 1,
    },
    'create-many-unique-events': {
      previous: makeUniqueEvents(30),
      next: uniqueEvent,
      expected: setCount(uniqueEvent, 1),
      intervalSeconds: 5,
    },
    'similar-events-should-aggregate-event': {
      previous: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message!),
      next: similarEvent,
      expected: setCount(aggregateEvent, 1),
      intervalSeconds: 5,
    },
    'similar-events-many-times-should-count-the-aggregate': {
      previous: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS, similarEvent, similarEvent.message!),
      next: similarEvent,
      expected: setCount(aggregateEvent, 2),
      intervalSeconds: 5,
    },
    'events-from-different-containers-do-not-aggregate': {
      previous: makeEvents(1, similarButDifferentContainerEvent),
      next: similarEvent,
      expected: setCount(similarEvent, 1),
      intervalSeconds: 5,
    },
    'similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate': {
      previous: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message!),
      next: similarEvent,
      expected: setCount(similarEvent, 1),
      intervalSeconds: DEFAULT_AGGREGATE_INTERVAL_SECONDS,
    },
  };

  for (const [name, s] of Object.entries(scenarios)) {
    it(name, () => {
      const clock = intervalClock(s.intervalSeconds);
      const correlator = new EventCorrelator({ clock });
      const stamp = (e: CoreEvent): CoreEvent => {
        const now = rfc3339(new Date(clock.now()));
        return { ...e, firstTimestamp: now, lastTimestamp: now };
      };
      for (const e of s.previous) {
        const result = correlator.correlate(stamp(e));
        if (!result.skip) correlator.updateState(result.event);
      }
      const result = correlator.correlate(stamp(s.next));
      expect(result.skip).toBe(Boolean(s.skip));
      if (!result.skip) validateEvent(result.event, s.expected!);
    });
  }
});

describe('EventSpamFilter (TestEventSpamFilter)', () => {
  const byObjectAndReason = (e: CoreEvent) =>
    [
      e.source?.component,
      e.source?.host,
      e.involvedObject?.kind,
      e.involvedObject?.namespace,
      e.involvedObject?.name,
      e.involvedObject?.uid,
      e.involvedObject?.apiVersion,
      e.reason,
    ].join('');
  const ref = makeRef('Pod', 'my-pod', 'my-ns');
  const original = makeEvent('original', 'i am first', ref);
  const differentReason = makeEvent('duplicate', 'me again', ref);
  const spam = makeEvent('original', 'me again', ref);
  const cases: Record<string, { next: CoreEvent; skip: boolean; spamKeyFunc?: (e: CoreEvent) => string }> = {
    'event should be reported as spam if object reference is the same for default spam filter': {
      next: differentReason,
      skip: true,
    },
    'event should not be reported as spam if object reference is the same, but reason is different for custom spam filter':
      { next: differentReason, skip: false, spamKeyFunc: byObjectAndReason },
    'event should be reported as spam if object reference and reason is the same, but message is different for custom spam filter':
      { next: spam, skip: true, spamKeyFunc: byObjectAndReason },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      const correlator = new EventCorrelator({ clock: intervalClock(1), spamKeyFunc: c.spamKeyFunc, burstSize: 1 });
      const first = correlator.correlate(original);
      if (!first.skip) correlator.updateState(first.event);
      const result = correlator.correlate(c.next);
      expect(result.skip).toBe(c.skip);
      if (!result.skip) validateEvent(result.event, c.next);
    });
  }
});

describe('LruCache', () => {
  it('keeps the most recently used keys', () => {
    const lru = new LruCache<number>(2);
    lru.add('a', 1);
    lru.add('b', 2);
    lru.get('a');
    lru.add('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.length]).toEqual([1, undefined, 3, 2]);
  });
});

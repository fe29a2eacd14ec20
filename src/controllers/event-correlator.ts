/**
 * Client-go's event correlation (tools/record/events_cache.go, EventCorrelator) for the core/v1
 * Events the in-server controllers record: before an Event is written,
 *  - the aggregator groups events that differ only by message (same source, involved object,
 *    type, reason, reporting controller and instance): from the `maxEvents`th (10) distinct
 *    message within `maxIntervalInSeconds` (600) of the previous one, the event is replaced by
 *    one Event "(combined from similar events): <message>";
 *  - the event logger counts repeats of the same event (same key, {@link eventKey}): a repeat
 *    becomes a patch of the first one's Event (its name, firstTimestamp, `count` + 1, the new
 *    lastTimestamp and message);
 *  - the spam filter lets a source send `burst` (25) events about an object, refilled at `qps`
 *    (one per 5 minutes), and skips the rest.
 * Each cache keeps its `lruCacheSize` (4096) most recently used keys. Times are milliseconds
 * from the correlator's clock.
 */
import { rfc3339, type ApiObject } from '../api/object.js';

/** The fields of a core/v1 Event the correlator reads and writes. */
export interface CoreEvent extends ApiObject {
  involvedObject?: {
    kind?: string;
    namespace?: string;
    name?: string;
    uid?: string;
    apiVersion?: string;
    resourceVersion?: string;
    fieldPath?: string;
  };
  source?: { component?: string; host?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  reportingComponent?: string;
  reportingInstance?: string;
}

/** A source of the current time in ms (upstream clock.Clock); each call may advance a fake one. */
export interface EventClock {
  now(): number;
}
const REAL_CLOCK: EventClock = { now: () => Date.now() };

/** Upstream's defaults (events_cache.go). */
export const MAX_LRU_CACHE_ENTRIES = 4096;
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
export const DEFAULT_AGGREGATE_INTERVAL_SECONDS = 600;
export const DEFAULT_SPAM_BURST = 25;
export const DEFAULT_SPAM_QPS = 1 / 300;

/** A map keeping its `size` most recently used keys (groupcache lru.Cache). */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  add(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }
  get length(): number {
    return this.map.size;
  }
}

const src = (e: CoreEvent) => [e.source?.component ?? '', e.source?.host ?? ''];
const obj = (e: CoreEvent) => {
  const o = e.involvedObject ?? {};
  return [o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? '', o.apiVersion ?? ''];
};

/** The key of an event's exact repeats: source, involved object (with fieldPath), type, reason, message (getEventKey). */
export function eventKey(e: CoreEvent): string {
  const [kind, namespace, name, uid, apiVersion] = obj(e);
  const fieldPath = e.involvedObject?.fieldPath ?? '';
  return [...src(e), kind, namespace, name, fieldPath, uid, apiVersion, e.type, e.reason, e.message].join('');
}

/** The spam filter's key: source and involved object (getSpamKey). */
export function spamKey(e: CoreEvent): string {
  return [...src(e), ...obj(e)].join('');
}

/**
 * The aggregation group of an event and its key within the group (EventAggregatorByReasonFunc):
 * events that differ only by message share the group.
 */
export function aggregateByReason(e: CoreEvent): [aggregateKey: string, localKey: string] {
  const group = [...src(e), ...obj(e), e.type, e.reason, e.reportingComponent, e.reportingInstance];
  return [group.map((x) => x ?? '').join(''), e.message ?? ''];
}

/** The message of an aggregate event (EventAggregatorByReasonMessageFunc). */
export function aggregateMessage(e: CoreEvent): string {
  return `(combined from similar events): ${e.message ?? ''}`;
}

/** A token bucket of `burst` tokens refilled at `qps` per second, full at first (flowcontrol's token bucket). */
class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private readonly qps: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }
  tryAccept(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Options of {@link EventCorrelator} (upstream CorrelatorOptions); unset ones take upstream's defaults. */
export interface CorrelatorOptions {
  readonly lruCacheSize?: number;
  readonly burstSize?: number;
  readonly qps?: number;
  readonly keyFunc?: (e: CoreEvent) => [string, string];
  readonly messageFunc?: (e: CoreEvent) => string;
  readonly maxEvents?: number;
  readonly maxIntervalInSeconds?: number;
  readonly clock?: EventClock;
  readonly spamKeyFunc?: (e: CoreEvent) => string;
  /** Whether the spam filter runs (default true, as upstream; not an upstream option). */
  readonly spamFilter?: boolean;
}

/** What a repeat changes on the stored Event (the fields of upstream's two-way merge patch). */
export interface EventPatch {
  readonly count: number;
  readonly lastTimestamp?: string;
  readonly message?: string;
}

/** The outcome of {@link EventCorrelator.correlate}: skip it, or write `event` (patching with `patch` when set). */
export type CorrelateResult =
  { readonly skip: true } | { readonly skip: false; readonly event: CoreEvent; readonly patch?: EventPatch };

interface AggregateRecord {
  readonly localKeys: Set<string>;
  lastTimestamp: number;
}
interface EventLog {
  readonly count: number;
  readonly firstTimestamp?: string;
  readonly name: string;
  readonly resourceVersion?: string;
}

/** Filters, aggregates and counts events before they are written (see the file comment). */
export class EventCorrelator {
  private readonly o: Required<CorrelatorOptions>;
  private readonly spam: LruCache<TokenBucket>;
  private readonly aggregates: LruCache<AggregateRecord>;
  private readonly observed: LruCache<EventLog>;

  constructor(options: CorrelatorOptions = {}) {
    this.o = {
      lruCacheSize: options.lruCacheSize || MAX_LRU_CACHE_ENTRIES,
      burstSize: options.burstSize || DEFAULT_SPAM_BURST,
      qps: options.qps || DEFAULT_SPAM_QPS,
      keyFunc: options.keyFunc ?? aggregateByReason,
      messageFunc: options.messageFunc ?? aggregateMessage,
      maxEvents: options.maxEvents || DEFAULT_AGGREGATE_MAX_EVENTS,
      maxIntervalInSeconds: options.maxIntervalInSeconds || DEFAULT_AGGREGATE_INTERVAL_SECONDS,
      clock: options.clock ?? REAL_CLOCK,
      spamKeyFunc: options.spamKeyFunc ?? spamKey,
      spamFilter: options.spamFilter ?? true,
    };
    this.spam = new LruCache(this.o.lruCacheSize);
    this.aggregates = new LruCache(this.o.lruCacheSize);
    this.observed = new LruCache(this.o.lruCacheSize);
  }

  /** Aggregate, count, then filter `event` (EventCorrelate). `event` is not modified. */
  correlate(event: CoreEvent): CorrelateResult {
    const [aggregated, key] = this.aggregate(event);
    const { event: observed, patch } = this.observe(aggregated, key);
    if (this.filter(observed)) return { skip: true };
    return { skip: false, event: observed, ...(patch ? { patch } : {}) };
  }

  /** Remember the Event as the server returned it (its name, resourceVersion, count) (UpdateState). */
  updateState(event: CoreEvent): void {
    this.observed.add(eventKey(event), logOf(event));
  }

  /** The event to write in place of `event`, and the key its repeats are counted under. */
  private aggregate(event: CoreEvent): [CoreEvent, string] {
    const now = this.o.clock.now();
    const [aggregateKey, localKey] = this.o.keyFunc(event);
    let record = this.aggregates.get(aggregateKey);
    if (!record || now - record.lastTimestamp > this.o.maxIntervalInSeconds * 1000)
      record = { localKeys: new Set(), lastTimestamp: 0 };
    record.localKeys.add(localKey);
    record.lastTimestamp = now;
    this.aggregates.add(aggregateKey, record);
    if (record.localKeys.size < this.o.maxEvents) return [event, eventKey(event)];
    // Keep the set from growing past the maximum.
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const time = rfc3339(new Date(now));
    const combined: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${event.involvedObject?.name ?? ''}.${(BigInt(now) * 1_000_000n).toString(16)}`,
        namespace: event.metadata.namespace ?? '',
      },
      count: 1,
      firstTimestamp: time,
      involvedObject: event.involvedObject,
      lastTimestamp: time,
      message: this.o.messageFunc(event),
      type: event.type,
      reason: event.reason,
      source: event.source,
    };
    return [combined, aggregateKey];
  }

  /** `event` as a repeat of the one last seen under `key`, if any, and the patch making it so (eventObserve). */
  private observe(event: CoreEvent, key: string): { event: CoreEvent; patch?: EventPatch } {
    const last = this.observed.get(key);
    let out: CoreEvent = event;
    let patch: EventPatch | undefined;
    if (last && last.count > 0) {
      const metadata = { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion };
      out = { ...event, metadata, firstTimestamp: last.firstTimestamp, count: last.count + 1 };
      patch = { count: last.count + 1, lastTimestamp: out.lastTimestamp, message: out.message };
    }
    this.observed.add(key, logOf(out));
    return { event: out, patch };
  }

  /** Whether the source has used up its budget of events about the object (EventSourceObjectSpamFilter). */
  private filter(event: CoreEvent): boolean {
    if (!this.o.spamFilter) return false;
    const key = this.o.spamKeyFunc(event);
    const now = this.o.clock.now();
    let bucket = this.spam.get(key);
    bucket ??= new TokenBucket(this.o.qps, this.o.burstSize, now);
    const skip = !bucket.tryAccept(now);
    this.spam.add(key, bucket);
    return skip;
  }
}

function logOf(e: CoreEvent): EventLog {
  return {
    count: e.count ?? 0,
    firstTimestamp: e.firstTimestamp,
    name: e.metadata.name ?? '',
    resourceVersion: e.metadata.resourceVersion ?? undefined,
  };
}

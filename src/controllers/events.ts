/**
 * The core/v1 Events the in-server controllers record about their objects, as client-go's
 * legacy event recorder (tools/record event.go) writes them: named `<object>.<hex ms><random>`
 * in the object's namespace, `involvedObject` referring to it, `source.component` the
 * controller, `count` 1 and both timestamps now. Before it is written an event goes through the
 * recorder's correlator (event-correlator.ts; one per source component, in memory): a repeat
 * within 10 minutes patches the first Event's `count`, `lastTimestamp` and message, many similar
 * events become one "(combined from similar events): ..." Event, and (once enabled,
 * {@link setEventSpamFilter}) a source's burst of events about one object is cut off (25, then
 * one per 5 minutes). Best effort: a failed write is
 * logged at debug level, never thrown.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import { rfc3339, type ApiObject } from '../api/object.js';
import { ApiError } from '../errors/api-error.js';
import type { WriterInfo } from '../registry/access.js';
import type { GenericStore } from '../registry/generic-store.js';
import { EventCorrelator, type CoreEvent, type CorrelatorOptions } from './event-correlator.js';

/** What an Event says about an object. */
export interface LegacyEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

/**
 * The Event `event` about `obj` (of `apiVersion` and `kind`) reported by `component`;
 * `extra` fields are added as they are (e.g. `reportingComponent`).
 */
export function legacyEvent(
  obj: ApiObject,
  ref: { readonly apiVersion: string; readonly kind: string },
  component: string,
  event: LegacyEvent,
  now = new Date(),
  extra: Readonly<Record<string, unknown>> = {},
): ApiObject {
  const namespace = obj.metadata.namespace ?? '';
  const suffix = `${now.getTime().toString(16)}${Math.floor(Math.random() * 0xffff).toString(16)}`;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${obj.metadata.name}.${suffix}`, namespace },
    involvedObject: {
      apiVersion: ref.apiVersion,
      kind: ref.kind,
      name: obj.metadata.name,
      namespace,
      uid: obj.metadata.uid,
      resourceVersion: obj.metadata.resourceVersion,
    },
    reason: event.reason,
    message: event.message,
    type: event.type,
    source: { component },
    firstTimestamp: rfc3339(now),
    lastTimestamp: rfc3339(now),
    count: 1,
    ...extra,
  };
}

/** A correlator and the chain its writes are made on one at a time (upstream's broadcaster goroutine). */
interface Recorder {
  readonly correlator: EventCorrelator;
  tail: Promise<void>;
}
const recorders = new Map<string, Recorder>();

/**
 * Whether the recorders' spam filter runs (off until the lead turns it on: with it, a source's
 * 26th event about one object within minutes is dropped, as upstream, which some tests that
 * look for a late Event do not expect; see /work/briefs/requests.md).
 */
let spamFilter = false;

/** Turn the spam filter of the correlators created from now on on or off (see {@link eventCorrelatorFor}). */
export function setEventSpamFilter(on: boolean): void {
  spamFilter = on;
}

/** The correlator of `component`'s events (created on first use, kept for the process). */
export function eventCorrelatorFor(component: string, options?: CorrelatorOptions): EventCorrelator {
  return recorderFor(component, options).correlator;
}

function recorderFor(component: string, options?: CorrelatorOptions): Recorder {
  let r = recorders.get(component);
  if (!r) {
    r = { correlator: new EventCorrelator({ spamFilter, ...options }), tail: Promise.resolve() };
    recorders.set(component, r);
  }
  return r;
}

/** Forget every component's correlator (tests; a restarted controller manager starts empty too). */
export function resetEventCorrelators(): void {
  recorders.clear();
}

/**
 * Write `event` (built by {@link legacyEvent}) as `user`, correlated by its source component's
 * correlator (upstream recordToSink / recordEvent): skipped as spam, a new Event, or a patch of
 * the repeated one (created anew when that Event is gone). Writes of one component are made
 * one after another; the promise settles once this one is done. Failures are logged.
 */
export function recordLegacyEvent(
  events: GenericStore,
  event: ApiObject,
  user: WriterInfo,
  logger: Logger,
): Promise<void> {
  const component = (event as CoreEvent).source?.component ?? '';
  const recorder = recorderFor(component);
  const write = recorder.tail.then(() => recordToSink(events, recorder.correlator, event as CoreEvent, user, logger));
  recorder.tail = write;
  return write;
}

async function recordToSink(
  events: GenericStore,
  correlator: EventCorrelator,
  event: CoreEvent,
  user: WriterInfo,
  logger: Logger,
): Promise<void> {
  try {
    const result = correlator.correlate(event);
    if (result.skip) return;
    const namespace = result.event.metadata.namespace ?? '';
    let saved: ApiObject | undefined;
    const patch = result.patch;
    if (patch && (result.event.count ?? 0) > 1) {
      try {
        saved = await events.update(
          namespace,
          result.event.metadata.name ?? '',
          (cur) => ({ ...cur, ...patch }),
          undefined,
          {
            user,
          },
        );
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
    if (!saved) {
      const { resourceVersion: _rv, ...metadata } = result.event.metadata;
      saved = await events.create(namespace, { ...result.event, metadata }, { user });
    }
    correlator.updateState(saved as CoreEvent);
  } catch (err) {
    logger.debug({ reason: event.reason, err: errorMessage(err) }, 'controller event not recorded');
  }
}

/**
 * The core/v1 Events the in-server controllers record about their objects, as client-go's
 * legacy event recorder (tools/record) writes them: named `<object>.<hex ms><random>` in the
 * object's namespace, `involvedObject` referring to it, `source.component` the controller,
 * `count` 1 and both timestamps now (upstream's recorder aggregates repeats; here each is a new
 * Event). Best effort: a failed write is logged at debug level, never thrown.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../api/error-message.js';
import { rfc3339, type ApiObject } from '../api/object.js';
import type { WriterInfo } from '../registry/access.js';
import type { GenericStore } from '../registry/generic-store.js';

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

/** Write `event` (built by {@link legacyEvent}) to the Event store as `user`; failures are logged. */
export async function recordLegacyEvent(
  events: GenericStore,
  event: ApiObject,
  user: WriterInfo,
  logger: Logger,
): Promise<void> {
  try {
    await events.create(event.metadata.namespace ?? '', event, { user });
  } catch (err) {
    logger.debug({ reason: event.reason, err: errorMessage(err) }, 'controller event not recorded');
  }
}

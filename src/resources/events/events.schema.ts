/** Event fields. */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, int, obj, objectReference, str, time } from '../../api/core/schema-kit.js';

export const eventSchema = kindSchema({
  action: str.describe('What was done, or failed to be done, to the involved object.'),
  count: int.describe('Number of times the event has occurred.'),
  eventTime: time.describe('When the event was first observed, with microseconds.'),
  firstTimestamp: time.describe('When the event was first recorded.'),
  involvedObject: atomic(obj(objectReference)).describe('The object the event is about.'),
  lastTimestamp: time.describe('When the most recent occurrence was recorded.'),
  message: str.describe('Human-readable description of the event.'),
  reason: str.describe('Short machine-readable reason for the transition, in CamelCase.'),
  related: atomic(obj(objectReference)).describe('A second object the event concerns, if any.'),
  reportingComponent: str.describe('Name of the controller that emitted the event.'),
  reportingInstance: str.describe('Id of the controller instance that emitted the event.'),
  series: obj({ count: int, lastObservedTime: time, state: str }).describe(
    'Data of the event series this event represents, if it is one.',
  ),
  source: obj({ component: str, host: str }).describe('Component (and host) reporting the event.'),
  type: str.describe('Type of the event: Normal or Warning.'),
});

/** An Event as its schema describes it (for its strategy and printer). */
export type Event = KindObject<typeof eventSchema>;

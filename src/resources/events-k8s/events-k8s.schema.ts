/**
 * Event of events.k8s.io v1 and v1beta1 (k8s.io/api events/v1 types.go; v1beta1 has the same
 * fields): a view of core/v1 Event with renamed fields (events-k8s.conversion.ts).
 */
import type { KindObject } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { atomic, int, obj, objectReference, str, time } from '../../api/core/schema-kit.js';

export const eventsK8sSchema = kindSchema({
  action: str.describe(
    'What action was taken/failed regarding the regarding object; machine-readable, at most 128 characters. Cannot be empty for new Events.',
  ),
  deprecatedCount: int.describe('Deprecated field assuring backward compatibility with core.v1 Event type (count).'),
  deprecatedFirstTimestamp: time.describe(
    'Deprecated field assuring backward compatibility with core.v1 Event type (firstTimestamp).',
  ),
  deprecatedLastTimestamp: time.describe(
    'Deprecated field assuring backward compatibility with core.v1 Event type (lastTimestamp).',
  ),
  deprecatedSource: obj({
    component: str.describe('Component from which the event is generated.'),
    host: str.describe('Node name on which the event is generated.'),
  }).describe('Deprecated field assuring backward compatibility with core.v1 Event type (source).'),
  eventTime: time.describe('When this Event was first observed (MicroTime). Required.'),
  note: str.describe('Human-readable description of the status of this operation; at most 1kB.'),
  reason: str.describe(
    'Why the action was taken; human-readable, at most 128 characters. Cannot be empty for new Events.',
  ),
  regarding: atomic(obj(objectReference)).describe('The object this Event is about.'),
  related: atomic(obj(objectReference)).describe('An optional secondary object for more complex actions.'),
  reportingController: str.describe(
    'Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. Cannot be empty for new Events.',
  ),
  reportingInstance: str.describe(
    'ID of the controller instance, e.g. `kubelet-xyzf`; at most 128 characters. Cannot be empty for new Events.',
  ),
  series: obj({
    count: int.describe('Number of occurrences in this series up to the last heartbeat time.'),
    lastObservedTime: time.describe('When the last Event of the series was seen before the last heartbeat.'),
  }).describe("Data about the Event series this event represents, or nil if it's a singleton Event."),
  type: str.describe('Type of this event (Normal, Warning); machine-readable. Cannot be empty for new Events.'),
});

/** An events.k8s.io Event as its schema describes it. */
export type EventsK8sEvent = KindObject<typeof eventsK8sSchema>;

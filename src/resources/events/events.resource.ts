/**
 * Event (core/v1). Field selectors as upstream 1.10 (pkg/apis/core/v1/conversion.go and
 * pkg/registry/core/event/strategy.go): involvedObject.*, reason, source, type.
 */
import { eventPrinter } from './events.table.js';
import { eventSchema, type Event } from './events.schema.js';
import { defineResource } from '../define.js';
import { eventMessages } from './events.protobuf.js';
import { validateEvent } from './events.validation.js';

const involved = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

export const events = defineResource({
  kind: 'Event',
  description: 'Event reports something that happened to an object, such as a scheduling decision or an error.',
  protobuf: eventMessages,
  plural: 'events',
  // Upstream serves events without a watch cache (DefaultWatchCacheSizes: events 0).
  watchCache: false,
  namespaced: true,
  schema: eventSchema,
  printer: eventPrinter,
  shortNames: ['ev'],
  // Upstream's update runs ValidateEvent again (event strategy ValidateUpdate).
  strategy: { validate: validateEvent, validateUpdate: (obj) => validateEvent(obj) },
  selectableFields: [...involved.map((f) => `involvedObject.${f}`), 'reason', 'source', 'type'],
  fieldSet: (obj) => {
    const io: NonNullable<Event['involvedObject']> = obj.involvedObject ?? {};
    const source: NonNullable<Event['source']> = obj.source ?? {};
    const set: Record<string, string> = {
      reason: String(obj.reason ?? ''),
      source: String(source.component ?? ''),
      type: String(obj.type ?? ''),
    };
    for (const f of involved) set[`involvedObject.${f}`] = String(io[f] ?? '');
    return set;
  },
});

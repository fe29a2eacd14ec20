/**
 * Event of events.k8s.io v1 and v1beta1, and of the spec's events.ck.io/v1beta1: views of the
 * core/v1 events (upstream serves events.k8s.io from the core event storage, as a different
 * version of the same internal Event). The storage row is core/v1's (events/events.resource.ts):
 * every row here converts to and from it (events-k8s.conversion.ts), keeps its storage prefix,
 * its lack of a watch cache and its rules; events.k8s.io/v1 writes add upstream's strict rules
 * (events-k8s.validation.ts). Short name `ev`, as upstream's discovery for events.k8s.io.
 * Field selectors are events.k8s.io's labels (regarding.*, reportingController, reason, source,
 * type), evaluated on the stored object as upstream's label conversion maps them.
 */
import type { ResourceDefinition, Strategy } from '../../registry/types.js';
import { defineResource } from '../define.js';
import { events } from '../events/events.resource.js';
import type { Event } from '../events/events.schema.js';
import { eventsConversion } from './events-k8s.conversion.js';
import { eventsK8sMessages } from './events-k8s.protobuf.js';
import { eventsK8sSchema } from './events-k8s.schema.js';
import { eventsK8sPrinter } from './events-k8s.table.js';
import { validateEventsV1Create, validateEventsV1Update } from './events-k8s.validation.js';

const REGARDING = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

/** The events.k8s.io field labels of a stored (core/v1) Event. */
function fieldSet(obj: Event): Record<string, string> {
  const core = events.fieldSet!(obj);
  const set: Record<string, string> = {
    reason: core.reason ?? '',
    reportingController: String(obj.reportingComponent ?? ''),
    source: core.source ?? '',
    type: core.type ?? '',
  };
  for (const f of REGARDING) set[`regarding.${f}`] = core[`involvedObject.${f}`] ?? '';
  return set;
}

/** The rules of a legacy write (core/v1's, as upstream's for core/v1 and events.k8s.io/v1beta1). */
const legacy: Strategy<Event> = events.strategy;

/** events.k8s.io/v1: the legacy rules and upstream's strict ones. */
const strict: Strategy<Event> = {
  ...legacy,
  validate: (obj) => [...(legacy.validate?.(obj) ?? []), ...validateEventsV1Create(obj)],
  validateUpdate: (obj, old) => [...(legacy.validateUpdate?.(obj, old) ?? []), ...validateEventsV1Update(obj, old)],
};

function row(group: string, version: string): ResourceDefinition {
  return defineResource({
    group,
    version,
    kind: 'Event',
    description:
      'Event is a report of an event somewhere in the cluster: what happened (reason, action, note) to which object (regarding), reported by which controller.',
    plural: 'events',
    namespaced: true,
    storagePrefix: events.storagePrefix,
    watchCache: events.watchCache,
    shortNames: ['ev'],
    schema: eventsK8sSchema,
    printer: eventsK8sPrinter,
    protobuf: eventsK8sMessages(`${group}/${version}`),
    strategy: group === 'events.k8s.io' && version === 'v1' ? strict : legacy,
    conversion: eventsConversion(`${group}/${version}`),
    selectableFields: ['reason', ...REGARDING.map((f) => `regarding.${f}`), 'reportingController', 'source', 'type'],
    fieldSet,
  });
}

/** events.k8s.io/v1, upstream's current version. */
export const eventsV1 = row('events.k8s.io', 'v1');
/** events.k8s.io/v1beta1 and the spec's events.ck.io/v1beta1. */
export const eventsV1beta1 = row('events.k8s.io', 'v1beta1');
export const eventsCkV1beta1 = row('events.ck.io', 'v1beta1');

/** `kubectl get events` columns (upstream printEvent): LAST SEEN TYPE REASON OBJECT MESSAGE; wide SUBOBJECT SOURCE COUNT FIRST SEEN NAME. */
import { NAME_COLUMN, column, humanDuration, type TablePrinter } from '../../api/table.js';
import type { Event } from './events.schema.js';

export const eventPrinter: TablePrinter<Event> = {
  columns: [
    column('Last Seen', 'string', 'The time the event was last seen.'),
    column('Type', 'string', 'Type of this event (Normal, Warning).'),
    column('Reason', 'string', 'A short, machine understandable string that gives the reason for the event.'),
    column('Object', 'string', 'The object this event is about.'),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('Subobject', 'string', 'The sub-object this event is about.', 1),
    column('Source', 'string', 'The component reporting this event.', 1),
    column('Count', 'integer', 'The number of times this event has occurred.', 1),
    column('First Seen', 'string', 'The time at which the event was first recorded.', 1),
    { ...NAME_COLUMN, priority: 1 },
  ],
  cells: (obj, now) => [...eventCells(obj, now)],
};

function since(ts: string | null | undefined, now: Date): string {
  const t = ts ? Date.parse(ts) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration((now.getTime() - t) / 1000);
}

function eventCells(e: Event, now: Date): unknown[] {
  const io: NonNullable<Event['involvedObject']> = e.involvedObject ?? {};
  const source = [e.source?.component, e.source?.host].filter(Boolean).join(', ');
  return [
    since(e.lastTimestamp ?? e.eventTime, now),
    e.type ?? '',
    e.reason ?? '',
    `${(io.kind ?? '').toLowerCase()}/${io.name ?? ''}`,
    e.message ?? '',
    io.fieldPath ?? '',
    source,
    e.count ?? 1,
    since(e.firstTimestamp ?? e.eventTime, now),
    e.metadata.name,
  ];
}

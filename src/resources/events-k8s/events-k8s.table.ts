/**
 * `kubectl get events.events.k8s.io` columns: upstream prints the internal (core) Event, so
 * the columns are core/v1's (events/events.table.ts), read from the core form of the object.
 */
import type { TablePrinter } from '../../api/table.js';
import { eventPrinter } from '../events/events.table.js';
import type { Event } from '../events/events.schema.js';
import { eventFromK8s } from './events-k8s.conversion.js';

export const eventsK8sPrinter: TablePrinter = {
  columns: eventPrinter.columns,
  // The conversion leaves a core/v1 object as it is, so stored and served objects both print.
  cells: (obj, now) => eventPrinter.cells(eventFromK8s(obj) as Event, now),
};

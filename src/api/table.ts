/**
 * Server-side printing (meta/v1 Table, upstream k8s.io/apimachinery pkg/apis/meta/v1 Table and
 * pkg/printers): column definitions and one row per object, with the object attached as
 * PartialObjectMetadata (default), in full, or not at all (`includeObject`).
 */
import type { ApiObject, ListMeta } from './object.js';

export interface TableColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/**
 * A kind's printer: its columns and the cells of one object. `T` is the kind's object type as
 * its schema describes it (KindObject); the resource table holds printers of ApiObject.
 */
export interface TablePrinter<T extends ApiObject = ApiObject> {
  readonly columns: readonly TableColumn[];
  cells(obj: T, now: Date): unknown[];
  /**
   * The rows' order, for a kind whose printer sorts a list (upstream printFlowSchemaList sorts
   * by matching precedence): a comparator as Array.prototype.sort takes; absent: the objects' order.
   */
  compare?(a: T, b: T): number;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** Build a column definition; `priority` 1 columns show only with `-o wide`. */
export function column(
  name: string,
  type: TableColumn['type'],
  description: string,
  priority = 0,
  format = '',
): TableColumn {
  return { name, type, format, description, priority };
}

export const NAME_COLUMN = column('Name', 'string', 'Name must be unique within a namespace.', 0, 'name');
export const AGE_COLUMN = column(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
);

/** Upstream duration.HumanDuration: `45s`, `3m20s`, `2h`, `5d`, `2y30d`, ... */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 24 * 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${d}d`;
  const y = Math.floor(d / 365);
  if (y < 8) return d % 365 === 0 ? `${y}y` : `${y}y${d % 365}d`;
  return `${y}y`;
}

/** The Age cell of an object (`<unknown>` without a creation time, as upstream). */
export function age(obj: ApiObject, now: Date): string {
  const created = obj.metadata.creationTimestamp ? Date.parse(obj.metadata.creationTimestamp) : NaN;
  return Number.isNaN(created) ? '<unknown>' : humanDuration((now.getTime() - created) / 1000);
}

/** The default printer for kinds without their own: Name and Created At. */
export const DEFAULT_PRINTER: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column(
      'Created At',
      'date',
      'CreationTimestamp is a timestamp representing the server time when this object was created.',
    ),
  ],
  cells: (obj) => [obj.metadata.name, obj.metadata.creationTimestamp],
};

/**
 * A Table of `objects` in `apiVersion` (`meta.k8s.io/v1` or the spec's `meta.ck.io/v1`, as
 * the client asked). Objects must carry kind/apiVersion when `include` is Object.
 */
export function buildTable(
  printer: TablePrinter,
  objects: readonly ApiObject[],
  meta: ListMeta,
  apiVersion: string,
  include: IncludeObject,
  now = new Date(),
) {
  const partial = apiVersion.replace(/\/v1beta1$/, '/v1');
  return {
    kind: 'Table',
    apiVersion,
    metadata: meta,
    columnDefinitions: printer.columns,
    rows: (printer.compare ? [...objects].sort((a, b) => printer.compare!(a, b)) : objects).map((o) => ({
      cells: printer.cells(o, now),
      object:
        include === 'None'
          ? null
          : include === 'Object'
            ? o
            : { kind: 'PartialObjectMetadata', apiVersion: partial, metadata: o.metadata },
    })),
  };
}

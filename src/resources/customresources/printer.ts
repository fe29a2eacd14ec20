/**
 * The Table of a custom resource (upstream apiextensions-apiserver
 * pkg/registry/customresource/tableconvertor): a Name column, then the version's
 * `additionalPrinterColumns`, or an Age column from `.metadata.creationTimestamp` when it has
 * none (crdHandler's serveDefaultColumnsIfEmpty). A cell is the first value the column's
 * JSONPath finds, typed by the column: integers and numbers as numbers, booleans, dates as
 * their age (`5m`), strings as printed; nothing found gives an empty (null) cell.
 */
import { findJsonPath, parseJsonPath, type JsonPathStep } from '../../api/jsonpath.js';
import type { ApiObject } from '../../api/object.js';
import { column, humanDuration, NAME_COLUMN, type TableColumn, type TablePrinter } from '../../api/table.js';

/** One `additionalPrinterColumns` entry. */
export interface PrinterColumnSpec {
  readonly name: string;
  readonly type: string;
  readonly format?: string | null;
  readonly description?: string | null;
  readonly priority?: number | null;
  readonly jsonPath: string;
}

const CREATION_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const AGE: PrinterColumnSpec = {
  name: 'Age',
  type: 'date',
  description: CREATION_DOC,
  jsonPath: '.metadata.creationTimestamp',
};

/** The printer of a version with `columns` (absent or empty: the Age column). */
export function customResourcePrinter(columns: readonly PrinterColumnSpec[] | null | undefined): TablePrinter {
  const specs = columns?.length ? columns : [AGE];
  const paths: (JsonPathStep[] | null)[] = specs.map((c) => {
    try {
      return parseJsonPath(c.jsonPath);
    } catch {
      return null; // upstream serves the column with no values when its path does not parse
    }
  });
  const defs: TableColumn[] = [
    NAME_COLUMN,
    ...specs.map((c) =>
      column(
        c.name,
        c.type as TableColumn['type'],
        c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
        c.priority ?? 0,
        c.format ?? '',
      ),
    ),
  ];
  return {
    columns: defs,
    cells(obj: ApiObject, now: Date): unknown[] {
      const cells: unknown[] = [obj.metadata.name ?? ''];
      specs.forEach((spec, i) => {
        const path = paths[i];
        const found = path ? findJsonPath(obj, path) : [];
        cells.push(found.length ? cell(spec.type, found[0], now) : null);
      });
      return cells;
    },
  };
}

/** upstream cellForJSONValue, and jsonpath's printing for string columns. */
function cell(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      if (Number.isNaN(t)) return '<invalid>';
      return humanDuration((now.getTime() - t) / 1000);
    }
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

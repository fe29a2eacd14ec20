/** `kubectl get endpoints` columns: NAME ENDPOINTS AGE. */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Endpoints } from './endpoints.schema.js';

export const endpointsPrinter: TablePrinter<Endpoints> = {
  columns: [
    NAME_COLUMN,
    column('Endpoints', 'string', 'Endpoints is the list of endpoints in the subsets.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, endpointsCell(obj), age(obj, now)],
};

/** `ip:port,...` with at most three shown, as upstream formatEndpoints. */
function endpointsCell(obj: Endpoints): string {
  const all: string[] = [];
  for (const s of obj.subsets ?? []) {
    for (const a of s.addresses ?? [])
      for (const p of s.ports?.length ? s.ports : [undefined]) all.push(p ? `${a.ip}:${p.port}` : a.ip);
  }
  if (!all.length) return '<none>';
  return all.length > 3 ? `${all.slice(0, 3).join(',')} + ${all.length - 3} more...` : all.join(',');
}

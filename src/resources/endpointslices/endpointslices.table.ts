/**
 * `kubectl get endpointslices` columns (upstream printEndpointSlice): NAME ADDRESSTYPE PORTS
 * ENDPOINTS AGE; ports and addresses list the first 3 and `+ N more...`, `<unset>` when none.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { EndpointSlice } from './endpointslices.schema.js';

const MAX = 3;

/** listWithMoreString over all of `values`. */
function firstThree(values: readonly string[]): string {
  const shown = values.slice(0, MAX).join(',');
  if (values.length > MAX) return `${shown} + ${values.length - MAX} more...`;
  return shown || '<unset>';
}

export const endpointSlicePrinter: TablePrinter<EndpointSlice> = {
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', 'addressType specifies the type of address carried by this EndpointSlice.'),
    column('Ports', 'string', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    column('Endpoints', 'string', 'endpoints is a list of unique endpoints in this slice.'),
    AGE_COLUMN,
  ],
  cells: (s, now) => [
    s.metadata.name,
    s.addressType ?? '',
    firstThree((s.ports ?? []).map((p) => (typeof p.port === 'number' ? String(p.port) : (p.name ?? '*')))),
    firstThree((s.endpoints ?? []).flatMap((e) => e.addresses ?? [])),
    age(s, now),
  ],
};

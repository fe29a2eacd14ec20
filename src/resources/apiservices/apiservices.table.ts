/**
 * `kubectl get apiservices` columns (kube-aggregator pkg/registry/apiservice/etcd ConvertToTable):
 * NAME SERVICE AVAILABLE AGE; SERVICE is `Local` or `<namespace>/<name>`, AVAILABLE the
 * Available condition's status (`False (<reason>)` with a reason), else `Unknown`.
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { APIService } from './apiservices.schema.js';

function available(obj: APIService): string {
  const c = (obj.status?.conditions ?? []).find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status === 'True' || !c.reason ? c.status : `${c.status} (${c.reason})`;
}

export const apiServicePrinter: TablePrinter<APIService> = {
  columns: [
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    obj.spec?.service ? `${obj.spec.service.namespace ?? ''}/${obj.spec.service.name ?? ''}` : 'Local',
    available(obj),
    age(obj, now),
  ],
};

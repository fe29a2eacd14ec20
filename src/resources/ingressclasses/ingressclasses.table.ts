/** `kubectl get ingressclasses` columns (upstream printers.go printIngressClass). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { IngressClass } from './ingressclasses.schema.js';

/** `Kind[.apiGroup]/name` of the parameters, `<none>` without. */
function parameters(obj: IngressClass): string {
  const p = obj.spec?.parameters;
  if (!p) return '<none>';
  return `${p.kind}${typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : ''}/${p.name}`;
}

export const ingressClassPrinter: TablePrinter<IngressClass> = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, obj.spec?.controller ?? '', parameters(obj), age(obj, now)],
};

/** `kubectl get networkpolicies` columns (upstream printers.go printNetworkPolicy). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import { formatLabelSelector } from '../apps-common/label-selector.js';
import type { NetworkPolicy } from './networkpolicies.schema.js';

export const networkPolicyPrinter: TablePrinter<NetworkPolicy> = {
  columns: [
    NAME_COLUMN,
    column(
      'Pod-Selector',
      'string',
      'Selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.',
    ),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [obj.metadata.name, formatLabelSelector(obj.spec?.podSelector ?? {}), age(obj, now)],
};

/**
 * `kubectl get ingresses` columns (upstream printers.go printIngress; the server prints wide:
 * the address is not shortened).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Ingress } from './ingresses.schema.js';

type Spec = NonNullable<Ingress['spec']>;

/** Upstream formatHosts: the first three hosts, `* ` when none. */
function formatHosts(rules: Spec['rules']): string {
  const all = rules ?? [];
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const rule of all) {
    if (list.length === max) more = true;
    if (!more && rule.host) list.push(rule.host);
  }
  if (!list.length) return '*';
  return more ? `${list.join(',')} + ${all.length - max} more...` : list.join(',');
}

/** Upstream ingressLoadBalancerStatusStringer: IPs, else hostnames, sorted and deduplicated. */
function formatAddress(obj: Ingress): string {
  const seen = new Set<string>();
  for (const i of obj.status?.loadBalancer?.ingress ?? []) {
    if (i.ip) seen.add(i.ip);
    else if (i.hostname) seen.add(i.hostname);
  }
  return [...seen].sort().join(',');
}

export const ingressPrinter: TablePrinter<Ingress> = {
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  cells: (obj, now) => [
    obj.metadata.name,
    obj.spec?.ingressClassName ?? '<none>',
    formatHosts(obj.spec?.rules),
    formatAddress(obj),
    obj.spec?.tls?.length ? '80, 443' : '80',
    age(obj, now),
  ],
};

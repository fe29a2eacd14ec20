/** `kubectl get services` columns (upstream printService). */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { Service } from './services.schema.js';

type Spec = NonNullable<Service['spec']>;
type Ingress = NonNullable<NonNullable<NonNullable<Service['status']>['loadBalancer']>['ingress']>[number];

function externalIp(spec: Spec, ingress: Ingress[]): string {
  switch (spec.type) {
    case 'LoadBalancer': {
      const ips = [...ingress.map((i) => i.ip || i.hostname || ''), ...(spec.externalIPs ?? [])].filter(Boolean);
      return ips.length ? ips.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '<none>';
    default:
      return spec.externalIPs?.length ? spec.externalIPs.join(',') : '<none>';
  }
}

export const servicePrinter: TablePrinter<Service> = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'type determines how the Service is exposed.'),
    column('Cluster-IP', 'string', 'clusterIP is the IP address of the service.'),
    column(
      'External-IP',
      'string',
      'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.',
    ),
    column('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    AGE_COLUMN,
    column('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  cells(obj, now) {
    const spec: Spec = obj.spec ?? {};
    const ingress = obj.status?.loadBalancer?.ingress ?? [];
    const ports =
      (spec.ports ?? [])
        .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
        .join(',') || '<none>';
    const selector =
      Object.entries(spec.selector ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(',') || '<none>';
    return [
      obj.metadata.name,
      spec.type ?? 'ClusterIP',
      spec.clusterIP || '<none>',
      externalIp(spec, ingress),
      ports,
      age(obj, now),
      selector,
    ];
  },
};

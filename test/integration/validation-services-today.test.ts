/**
 * The Service rules and defaults upstream added after 1.10, up to 1.33 (docs/validation/
 * services-secrets-config.md SVC-56 onwards): dual-stack fields (clusterIPs, ipFamilies,
 * ipFamilyPolicy) on this single-stack IPv4 cluster, traffic policies, loadBalancerClass,
 * allocateLoadBalancerNodePorts, appProtocol, trafficDistribution, load balancer ipMode, and
 * what an update keeps or drops (patchAllocatedValues, dropTypeDependentFields).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const svcs = '/api/v1/namespaces/default/services';

type Cause = { field: string; reason: string; message: string };
const c = (field: string, reason: string, message: string): Cause => ({ field, reason, message });
const REQ = 'FieldValueRequired';
const INV = 'FieldValueInvalid';
const DUP = 'FieldValueDuplicate';
const UNS = 'FieldValueNotSupported';
const FORB = 'FieldValueForbidden';
const QUALIFIED_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

let n = 0;
const svc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  metadata: { name: `today-${n++}`, ...meta },
  spec: { ports: [{ port: 80 }], ...spec },
});
const post = (body: unknown) => () => srv.api('POST', svcs, body);
/** Create `first`, then PUT `change(created)` (at `sub`); answers the PUT. */
async function update(first: { metadata: { name: string } }, change: (o: any) => any, sub = '') {
  const created = await srv.api('POST', svcs, first);
  expect(created.status, created.text).toBe(201);
  return srv.api('PUT', `${svcs}/${first.metadata.name}${sub}`, change(structuredClone(created.body)));
}
const ext = (extra: Record<string, unknown>) => svc({ type: 'ExternalName', externalName: 'db.example.com', ...extra });
const lb = (extra: Record<string, unknown> = {}) => svc({ type: 'LoadBalancer', ...extra });

type Case = [
  id: string,
  rule: string,
  send: () => Promise<{ status: number; body: any; text: string }>,
  causes: Cause[],
];

const cases: Case[] = [
  [
    'SVC-56',
    'ExternalName without ipFamilies',
    post(ext({ ipFamilies: ['IPv4'] })),
    [c('spec.ipFamilies', FORB, 'Forbidden: may not be set for ExternalName services')],
  ],
  [
    'SVC-57',
    'ExternalName without ipFamilyPolicy',
    post(ext({ ipFamilyPolicy: 'SingleStack' })),
    [c('spec.ipFamilyPolicy', FORB, 'Forbidden: may not be set for ExternalName services')],
  ],
  [
    'SVC-58',
    'appProtocol a qualified name',
    post(svc({ ports: [{ port: 80, appProtocol: 'a b' }] })),
    [c('spec.ports[0].appProtocol', INV, `Invalid value: "a b": ${QUALIFIED_MSG}`)],
  ],
  [
    'SVC-59',
    'clusterIPs[0] is clusterIP',
    post(svc({ clusterIP: '10.0.0.70', clusterIPs: ['10.0.0.71'] })),
    [c('spec.clusterIPs', INV, 'Invalid value: []string{"10.0.0.71"}: first value must match `clusterIP`')],
  ],
  [
    'SVC-60',
    'clusterIPs only with clusterIP',
    post(svc({ clusterIPs: ['10.0.0.72'] })),
    [
      c(
        'spec.clusterIPs',
        INV,
        'Invalid value: []string{"10.0.0.72"}: must be empty when `clusterIP` is not specified',
      ),
    ],
  ],
  [
    'SVC-61',
    'ipFamilies IPv4 or IPv6',
    post(svc({ ipFamilies: ['IPv5'] })),
    [c('spec.ipFamilies[0]', UNS, 'Unsupported value: "IPv5": supported values: "IPv4", "IPv6"')],
  ],
  [
    'SVC-62',
    'ipFamilies without repeats',
    post(svc({ ipFamilies: ['IPv4', 'IPv4'] })),
    [c('spec.ipFamilies[1]', DUP, 'Duplicate value: "IPv4"')],
  ],
  [
    'SVC-63',
    'ipFamilyPolicy a known policy',
    post(svc({ ipFamilyPolicy: 'Dual' })),
    [
      c(
        'spec.ipFamilyPolicy',
        UNS,
        'Unsupported value: "Dual": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
      ),
    ],
  ],
  [
    'SVC-64',
    "'None' alone in clusterIPs",
    post(svc({ clusterIP: 'None', clusterIPs: ['None', '10.0.0.5'] })),
    [c('spec.clusterIPs', INV, `Invalid value: []string{"None", "10.0.0.5"}: 'None' must be the first and only value`)],
  ],
  [
    'SVC-65',
    'at most two clusterIPs',
    post(svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', 'fd00::1', '10.0.0.2'] })),
    [
      c(
        'spec.clusterIPs',
        INV,
        'Invalid value: []string{"10.0.0.1", "fd00::1", "10.0.0.2"}: may only hold up to 2 values',
      ),
      c(
        'spec.clusterIPs',
        INV,
        'Invalid value: []string{"10.0.0.1", "fd00::1", "10.0.0.2"}: may specify no more than one IP for each IP family',
      ),
    ],
  ],
  [
    'SVC-66',
    'one clusterIP per family',
    post(svc({ clusterIP: '10.0.0.80', clusterIPs: ['10.0.0.80', '10.0.0.81'] })),
    [
      c(
        'spec.clusterIPs',
        INV,
        'Invalid value: []string{"10.0.0.80", "10.0.0.81"}: may specify no more than one IP for each IP family',
      ),
    ],
  ],
  [
    'SVC-67',
    'clusterIPs match ipFamilies',
    post(svc({ clusterIP: 'fd00::1', ipFamilies: ['IPv4'] })),
    [c('spec.clusterIPs[0]', INV, 'Invalid value: "fd00::1": expected an IPv4 value as indicated by `ipFamilies[0]`')],
  ],
  [
    'SVC-68',
    'allocateLoadBalancerNodePorts only for LoadBalancer',
    post(svc({ type: 'NodePort', allocateLoadBalancerNodePorts: false })),
    [c('spec.allocateLoadBalancerNodePorts', FORB, "Forbidden: may only be used when `type` is 'LoadBalancer'")],
  ],
  [
    'SVC-69',
    'loadBalancerClass a qualified name',
    post(lb({ loadBalancerClass: 'a b' })),
    [c('spec.loadBalancerClass', INV, `Invalid value: "a b": ${QUALIFIED_MSG}`)],
  ],
  [
    'SVC-70',
    'loadBalancerClass only for LoadBalancer',
    post(svc({ loadBalancerClass: 'example.com/lb' })),
    [c('spec.loadBalancerClass', FORB, "Forbidden: may only be used when `type` is 'LoadBalancer'")],
  ],
  [
    'SVC-72',
    'healthCheckNodePort a port number',
    post(lb({ externalTrafficPolicy: 'Local', healthCheckNodePort: 70000 })),
    [c('spec.healthCheckNodePort', INV, 'Invalid value: 70000: must be between 1 and 65535, inclusive')],
  ],
  [
    'SVC-74',
    'internalTrafficPolicy Cluster or Local',
    post(svc({ internalTrafficPolicy: 'Node' })),
    [c('spec.internalTrafficPolicy', UNS, 'Unsupported value: "Node": supported values: "Cluster", "Local"')],
  ],
  [
    'SVC-75',
    'trafficDistribution PreferClose',
    post(svc({ trafficDistribution: 'Nearest' })),
    [c('spec.trafficDistribution', UNS, 'Unsupported value: "Nearest": supported values: "PreferClose"')],
  ],
  [
    'SVC-76',
    'topology-mode matches topology-aware-hints',
    post(
      svc(
        {},
        {
          annotations: {
            'service.kubernetes.io/topology-mode': 'Auto',
            'service.kubernetes.io/topology-aware-hints': 'Disabled',
          },
        },
      ),
    ),
    [
      c(
        'metadata.annotations[service.kubernetes.io/topology-mode]',
        INV,
        'Invalid value: "Auto": must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
      ),
    ],
  ],
  [
    'SVC-78',
    'RequireDualStack on a single-stack cluster',
    post(svc({ ipFamilyPolicy: 'RequireDualStack' })),
    [
      c(
        'spec.ipFamilyPolicy',
        INV,
        'Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
      ),
    ],
  ],
  [
    'SVC-79',
    'ipFamilies served by the cluster',
    post(svc({ ipFamilies: ['IPv6'] })),
    [c('spec.ipFamilies[0]', INV, 'Invalid value: "IPv6": not configured on this cluster')],
  ],
  [
    'SVC-80',
    'clusterIPs of a family the cluster serves',
    post(svc({ clusterIP: 'fd00::10' })),
    [c('spec.clusterIPs[0]', INV, 'Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster')],
  ],
  [
    'SVC-81',
    'SingleStack with one family',
    post(svc({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4', 'IPv6'] })),
    [
      c(
        'spec.ipFamilyPolicy',
        INV,
        `Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`,
      ),
    ],
  ],
  [
    'SVC-82',
    'SingleStack with one cluster IP',
    post(svc({ ipFamilyPolicy: 'SingleStack', clusterIP: '10.0.0.90', clusterIPs: ['10.0.0.90', 'fd00::90'] })),
    [
      c(
        'spec.ipFamilyPolicy',
        INV,
        `Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified`,
      ),
      c(
        'spec.clusterIPs[1]',
        INV,
        'Invalid value: []string{"10.0.0.90", "fd00::90"}: IPv6 is not configured on this cluster',
      ),
    ],
  ],
  [
    'SVC-83',
    'loadBalancerClass fixed on a LoadBalancer',
    () => update(lb({ loadBalancerClass: 'example.com/a' }), (o) => ((o.spec.loadBalancerClass = 'example.com/b'), o)),
    [c('spec.loadBalancerClass', INV, 'Invalid value: "example.com/b": may not change once set')],
  ],
  [
    'SVC-87',
    'ipMode only with an ip (status)',
    () =>
      update(
        lb(),
        (o) => ((o.status = { loadBalancer: { ingress: [{ hostname: 'lb.example.com', ipMode: 'VIP' }] } }), o),
        '/status',
      ),
    [c('status.loadBalancer.ingress[0].ipMode', FORB, 'Forbidden: may not be specified when `ip` is not set')],
  ],
  [
    'SVC-88',
    'ipMode VIP or Proxy (status)',
    () =>
      update(
        lb(),
        (o) => ((o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'Direct' }] } }), o),
        '/status',
      ),
    [c('status.loadBalancer.ingress[0].ipMode', UNS, 'Unsupported value: "Direct": supported values: "Proxy", "VIP"')],
  ],
  [
    'SVC-89',
    'ipMode required with an ip (not defaulted off LoadBalancer)',
    () => update(svc({}), (o) => ((o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } }), o), '/status'),
    [c('status.loadBalancer.ingress[0].ipMode', REQ, 'Required value: must be specified when `ip` is set')],
  ],
];

describe('Service rules since 1.10', () => {
  it.each(cases)('%s %s', async (_id, _rule, send, causes) => {
    const res = await send();
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toEqual(causes);
  });
});

describe('Service defaults of a single-stack IPv4 cluster', () => {
  const create = async (body: ReturnType<typeof svc>) => {
    const res = await srv.api('POST', svcs, body);
    expect(res.status, res.text).toBe(201);
    return res.body.spec;
  };

  it('gives a ClusterIP service one family, SingleStack, clusterIPs and internalTrafficPolicy Cluster', async () => {
    const spec = await create(svc({}));
    expect(spec).toMatchObject({
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(spec.externalTrafficPolicy).toBeUndefined();
    expect(spec.allocateLoadBalancerNodePorts).toBeUndefined();
  });

  it('gives a LoadBalancer allocateLoadBalancerNodePorts true and externalTrafficPolicy Cluster', async () => {
    const spec = await create(lb());
    expect(spec).toMatchObject({
      allocateLoadBalancerNodePorts: true,
      externalTrafficPolicy: 'Cluster',
      internalTrafficPolicy: 'Cluster',
    });
  });

  it('gives a ClusterIP service with external IPs externalTrafficPolicy Cluster', async () => {
    expect(await create(svc({ externalIPs: ['192.0.2.10'] }))).toMatchObject({ externalTrafficPolicy: 'Cluster' });
  });

  it('gives an ExternalName service no IPs, families, policy or internalTrafficPolicy', async () => {
    const spec = await create(ext({}));
    for (const f of ['clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'])
      expect(spec[f]).toBeUndefined();
  });

  it('gives headless services ["None"]; without a selector RequireDualStack and both families', async () => {
    const withSelector = await create(svc({ clusterIP: 'None', selector: { app: 'db' } }));
    expect(withSelector).toMatchObject({ clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const bare = await create(svc({ clusterIP: 'None' }));
    expect(bare).toMatchObject({
      clusterIPs: ['None'],
      ipFamilies: ['IPv4', 'IPv6'],
      ipFamilyPolicy: 'RequireDualStack',
    });
  });

  it('keeps PreferDualStack with the one family the cluster has', async () => {
    expect(await create(svc({ ipFamilyPolicy: 'PreferDualStack' }))).toMatchObject({
      ipFamilyPolicy: 'PreferDualStack',
      ipFamilies: ['IPv4'],
    });
  });

  it('defaults a LoadBalancer ingress ipMode to VIP on a status write', async () => {
    const res = await update(
      lb(),
      (o) => ((o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.2' }] } }), o),
      '/status',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.status.loadBalancer.ingress).toEqual([{ ip: '192.0.2.2', ipMode: 'VIP' }]);
  });
});

describe('Service updates', () => {
  it('drops the cluster IPs, families and policy a type change to ExternalName leaves unchanged', async () => {
    const res = await update(svc({}), (o) => ({
      ...o,
      spec: { ...o.spec, type: 'ExternalName', externalName: 'a.example.com' },
    }));
    expect(res.status, res.text).toBe(200);
    for (const f of ['clusterIPs', 'ipFamilies', 'ipFamilyPolicy']) expect(res.body.spec[f]).toBeUndefined();
  });

  it('drops allocateLoadBalancerNodePorts and externalTrafficPolicy leaving LoadBalancer for ClusterIP', async () => {
    const res = await update(lb(), (o) => ({
      ...o,
      spec: { ...o.spec, type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] },
    }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.spec.allocateLoadBalancerNodePorts).toBeUndefined();
    expect(res.body.spec.externalTrafficPolicy).toBeUndefined();
  });

  it('keeps node ports and the health check port a replace omits (patchAllocatedValues)', async () => {
    const first = lb({ externalTrafficPolicy: 'Local', ports: [{ name: 'web', port: 80 }] });
    const res = await update(first, (o) => {
      delete o.spec.healthCheckNodePort;
      delete o.spec.ports[0].nodePort;
      return o;
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.spec.healthCheckNodePort).toBeGreaterThan(0);
    expect(res.body.spec.ports[0].nodePort).toBeGreaterThan(0);
  });
});

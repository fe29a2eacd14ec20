/**
 * One case per rule of docs/validation/services-secrets-config.md (upstream 1.10 ValidateService,
 * ValidateServiceUpdate, ValidateEndpoints(Update), ValidateSecret(Update), ValidateConfigMap(Update),
 * ValidateServiceAccount): a create (or an update, for update rules) through the API answers 422
 * Invalid with upstream's causes, in upstream's order.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const ns = '/api/v1/namespaces/default';

type Cause = { field: string; reason: string; message: string };
const c = (field: string, reason: string, message: string): Cause => ({ field, reason, message });
const REQ = 'FieldValueRequired';
const INV = 'FieldValueInvalid';
const DUP = 'FieldValueDuplicate';
const UNS = 'FieldValueNotSupported';
const FORB = 'FieldValueForbidden';
const LONG = 'FieldValueTooLong';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7)';
const IP_MSG_133 = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const PORT_RANGE = 'must be between 1 and 65535, inclusive';

let n = 0;
const svc = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  metadata: { name: `svc-${n++}`, ...meta },
  spec: { ports: [{ port: 80 }], ...spec },
});
const lbSourceKey = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const ep = (subsets: unknown[]) => ({ metadata: { name: `ep-${n++}` }, subsets });
const addr = (ip: string, extra: Record<string, unknown> = {}) => ({ ip, ...extra });
const secret = (type: string, data: Record<string, string> = {}, meta: Record<string, unknown> = {}) => ({
  metadata: { name: `sec-${n++}`, ...meta },
  type,
  data,
});
const cm = (data: Record<string, string>, binaryData?: Record<string, string>) => ({
  metadata: { name: `cm-${n++}` },
  data,
  ...(binaryData ? { binaryData } : {}),
});

/** Create `first`, then PUT `change(created)`; answers the PUT. */
async function update(plural: string, first: { metadata: { name: string } }, change: (o: any) => any, sub = '') {
  const created = await srv.api('POST', `${ns}/${plural}`, first);
  expect(created.status, created.text).toBe(201);
  return srv.api('PUT', `${ns}/${plural}/${first.metadata.name}${sub}`, change(structuredClone(created.body)));
}

type Case = [
  id: string,
  rule: string,
  send: () => Promise<{ status: number; body: any; text: string }>,
  causes: Cause[],
];
const post = (plural: string, body: unknown) => () => srv.api('POST', `${ns}/${plural}`, body);

const serviceCases: Case[] = [
  ['SVC-1', 'ports required', post('services', svc({ ports: [] })), [c('spec.ports', REQ, 'Required value')]],
  [
    'SVC-3',
    "LoadBalancer clusterIP 'None'",
    post('services', svc({ type: 'LoadBalancer', clusterIP: 'None' })),
    [c('spec.clusterIPs[0]', INV, `Invalid value: "None": may not be set to 'None' for LoadBalancer services`)],
  ],
  [
    'SVC-4',
    "NodePort clusterIP 'None'",
    post('services', svc({ type: 'NodePort', clusterIP: 'None' })),
    [c('spec.clusterIPs[0]', INV, `Invalid value: "None": may not be set to 'None' for NodePort services`)],
  ],
  [
    'SVC-5',
    'ExternalName clusterIPs must be empty',
    post('services', svc({ type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.50' })),
    [c('spec.clusterIPs', FORB, 'Forbidden: may not be set for ExternalName services')],
  ],
  [
    'SVC-6',
    'externalName a DNS-1123 subdomain',
    post('services', svc({ type: 'ExternalName', externalName: 'Example_com' })),
    [c('spec.externalName', INV, `Invalid value: "Example_com": ${DNS1123_SUBDOMAIN_MSG}`)],
  ],
  [
    'SVC-7',
    'externalName at most 253 characters',
    post('services', svc({ type: 'ExternalName', externalName: 'a'.repeat(254) })),
    [c('spec.externalName', INV, `Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`)],
  ],
  [
    'SVC-8',
    'externalName required',
    post('services', svc({ type: 'ExternalName' })),
    [c('spec.externalName', REQ, 'Required value')],
  ],
  [
    'SVC-9',
    'port names required with several ports (issue #13)',
    post('services', svc({ ports: [{ port: 80 }, { port: 443 }] })),
    [c('spec.ports[0].name', REQ, 'Required value'), c('spec.ports[1].name', REQ, 'Required value')],
  ],
  [
    'SVC-10',
    'port name a DNS-1123 label',
    post('services', svc({ ports: [{ name: 'Web', port: 80 }] })),
    [c('spec.ports[0].name', INV, `Invalid value: "Web": ${DNS1123_LABEL_MSG}`)],
  ],
  [
    'SVC-11',
    'port names unique (issue #13)',
    post(
      'services',
      svc({
        ports: [
          { name: 'web', port: 80 },
          { name: 'web', port: 81 },
        ],
      }),
    ),
    [c('spec.ports[1].name', DUP, 'Duplicate value: "web"')],
  ],
  [
    'SVC-12',
    'port 1..65535',
    post('services', svc({ ports: [{ port: 70000, targetPort: 80 }] })),
    [c('spec.ports[0].port', INV, `Invalid value: 70000: ${PORT_RANGE}`)],
  ],
  [
    'SVC-14',
    'protocol SCTP, TCP or UDP, case-sensitive',
    post('services', svc({ ports: [{ port: 80, protocol: 'tcp' }] })),
    [c('spec.ports[0].protocol', UNS, 'Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"')],
  ],
  [
    'SVC-15',
    'targetPort number 1..65535',
    post('services', svc({ ports: [{ port: 80, targetPort: 65536 }] })),
    [c('spec.ports[0].targetPort', INV, `Invalid value: 65536: ${PORT_RANGE}`)],
  ],
  [
    'SVC-16',
    'targetPort name at most 15 characters',
    post('services', svc({ ports: [{ port: 80, targetPort: 'a-very-long-port-name' }] })),
    [c('spec.ports[0].targetPort', INV, 'Invalid value: "a-very-long-port-name": must be no more than 15 characters')],
  ],
  [
    'SVC-17',
    'targetPort name alphabet',
    post('services', svc({ ports: [{ port: 80, targetPort: 'http_alt' }] })),
    [
      c(
        'spec.ports[0].targetPort',
        INV,
        'Invalid value: "http_alt": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ),
    ],
  ],
  [
    'SVC-18',
    'targetPort name has a letter',
    post('services', svc({ ports: [{ port: 80, targetPort: '8080' }] })),
    [
      c(
        'spec.ports[0].targetPort',
        INV,
        'Invalid value: "8080": must contain at least one letter or number (a-z, 0-9)',
      ),
    ],
  ],
  [
    'SVC-19',
    'targetPort name without consecutive hyphens',
    post('services', svc({ ports: [{ port: 80, targetPort: 'a--b' }] })),
    [c('spec.ports[0].targetPort', INV, 'Invalid value: "a--b": must not contain consecutive hyphens')],
  ],
  [
    'SVC-20',
    'targetPort name without edge hyphens',
    post('services', svc({ ports: [{ port: 80, targetPort: 'web-' }] })),
    [c('spec.ports[0].targetPort', INV, 'Invalid value: "web-": must not begin or end with a hyphen')],
  ],
  [
    'SVC-21',
    'selector keys are label keys',
    post('services', svc({ selector: { 'a b': 'x' } })),
    [
      c(
        'spec.selector',
        INV,
        `Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ),
    ],
  ],
  [
    'SVC-22',
    'selector values are label values',
    post('services', svc({ selector: { app: 'x y' } })),
    [
      c(
        'spec.selector',
        INV,
        `Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ),
    ],
  ],
  [
    'SVC-24',
    'sessionAffinity ClientIP or None',
    post('services', svc({ sessionAffinity: 'Sticky' })),
    [c('spec.sessionAffinity', UNS, 'Unsupported value: "Sticky": supported values: "ClientIP", "None"')],
  ],
  [
    'SVC-28',
    'affinity timeout 1..86400',
    post(
      'services',
      svc({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } }),
    ),
    [
      c(
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
        INV,
        'Invalid value: 86401: must be greater than 0 and less than 86400',
      ),
    ],
  ],
  [
    'SVC-30',
    'clusterIPs are IPs (clusterIP copied into clusterIPs)',
    post('services', svc({ clusterIP: '10.0.0.300' })),
    [c('spec.clusterIPs[0]', INV, `Invalid value: "10.0.0.300": ${IP_MSG_133}`)],
  ],
  [
    'SVC-31',
    'externalIPs are IPs',
    post('services', svc({ externalIPs: ['example.com'] })),
    [c('spec.externalIPs[0]', INV, `Invalid value: "example.com": ${IP_MSG}`)],
  ],
  [
    'SVC-32',
    'externalIPs not unspecified',
    post('services', svc({ externalIPs: ['0.0.0.0'] })),
    [c('spec.externalIPs[0]', INV, 'Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)')],
  ],
  [
    'SVC-33',
    'externalIPs not loopback',
    post('services', svc({ externalIPs: ['127.0.0.2'] })),
    [c('spec.externalIPs[0]', INV, 'Invalid value: "127.0.0.2": may not be in the loopback range (127.0.0.0/8)')],
  ],
  [
    'SVC-34',
    'externalIPs not link-local',
    post('services', svc({ externalIPs: ['169.254.169.254'] })),
    [
      c(
        'spec.externalIPs[0]',
        INV,
        'Invalid value: "169.254.169.254": may not be in the link-local range (169.254.0.0/16)',
      ),
    ],
  ],
  [
    'SVC-35',
    'externalIPs not link-local multicast',
    post('services', svc({ externalIPs: ['224.0.0.1'] })),
    [
      c(
        'spec.externalIPs[0]',
        INV,
        'Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24)',
      ),
    ],
  ],
  [
    'SVC-37',
    'type is a known type',
    post('services', svc({ type: 'Magic' })),
    [
      c(
        'spec.type',
        UNS,
        'Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ),
    ],
  ],
  [
    'SVC-40',
    'no nodePort for ClusterIP',
    post('services', svc({ ports: [{ port: 80, nodePort: 30080 }] })),
    [c('spec.ports[0].nodePort', FORB, "Forbidden: may not be used when `type` is 'ClusterIP'")],
  ],
  [
    'SVC-41',
    'nodePorts unique per protocol',
    post(
      'services',
      svc({
        type: 'NodePort',
        ports: [
          { name: 'a', port: 80, nodePort: 30080 },
          { name: 'b', port: 81, nodePort: 30080 },
        ],
      }),
    ),
    [c('spec.ports[1].nodePort', DUP, 'Duplicate value: 30080')],
  ],
  [
    'SVC-42',
    'ports unique per protocol',
    post(
      'services',
      svc({
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 80, targetPort: 81 },
        ],
      }),
    ),
    [
      c(
        'spec.ports[1]',
        DUP,
        'Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
      ),
    ],
  ],
  [
    'SVC-43',
    'loadBalancerSourceRanges only for LoadBalancer',
    post('services', svc({ loadBalancerSourceRanges: ['10.0.0.0/8'] })),
    [c('spec.LoadBalancerSourceRanges', FORB, "Forbidden: may only be used when `type` is 'LoadBalancer'")],
  ],
  [
    'SVC-44',
    'source-ranges annotation only for LoadBalancer',
    post('services', svc({}, { annotations: { [lbSourceKey]: '10.0.0.0/8' } })),
    [c(`metadata.annotations[${lbSourceKey}]`, FORB, "Forbidden: may only be used when `type` is 'LoadBalancer'")],
  ],
  [
    'SVC-45',
    'loadBalancerSourceRanges are CIDRs',
    post('services', svc({ type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0/8', '10.1.2.3'] })),
    [c('spec.LoadBalancerSourceRanges[1]', INV, `Invalid value: "10.1.2.3": ${CIDR_MSG}`)],
  ],
  [
    'SVC-46',
    'source-ranges annotation lists CIDRs',
    post('services', svc({ type: 'LoadBalancer' }, { annotations: { [lbSourceKey]: '10.0.0.0/8,nope' } })),
    [c(`metadata.annotations[${lbSourceKey}]`, INV, `Invalid value: "nope": ${CIDR_MSG}`)],
  ],
  [
    'SVC-47',
    'externalTrafficPolicy Cluster or Local',
    post('services', svc({ type: 'NodePort', externalTrafficPolicy: 'Global' })),
    [c('spec.externalTrafficPolicy', UNS, 'Unsupported value: "Global": supported values: "Cluster", "Local"')],
  ],
  [
    'SVC-48',
    'healthCheckNodePort a port number',
    post('services', svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: -1 })),
    [c('spec.healthCheckNodePort', INV, `Invalid value: -1: ${PORT_RANGE}`)],
  ],
  [
    'SVC-49',
    'externalTrafficPolicy only for externally-accessible services',
    post('services', svc({ externalTrafficPolicy: 'Local' })),
    [
      c(
        'spec.externalTrafficPolicy',
        INV,
        'Invalid value: "Local": may only be set for externally-accessible services',
      ),
    ],
  ],
  [
    'SVC-50',
    'healthCheckNodePort only for LoadBalancer with Local traffic',
    post('services', svc({ type: 'NodePort', healthCheckNodePort: 30100 })),
    [
      c(
        'spec.healthCheckNodePort',
        INV,
        "Invalid value: 30100: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
      ),
    ],
  ],
  [
    'SVC-51',
    'cluster IPs may not change once set',
    () => update('services', svc({ clusterIP: '10.0.0.60' }), (o) => ((o.spec.clusterIP = '10.0.0.61'), o)),
    [c('spec.clusterIPs[0]', INV, 'Invalid value: []string{"10.0.0.61"}: may not change once set')],
  ],
];

const endpointCases: Case[] = [
  [
    'EP-1',
    'a subset has addresses',
    post('endpoints', ep([{ ports: [{ port: 80 }] }])),
    [c('subsets[0]', REQ, 'Required value: must specify `addresses` or `notReadyAddresses`')],
  ],
  [
    'EP-2',
    'addresses are IPs',
    post('endpoints', ep([{ addresses: [addr('10.1.2')] }])),
    // Upstream 1.33: IsValidIP's wording, and ValidateNonSpecialIP runs on every address.
    [
      c('subsets[0].addresses[0].ip', INV, `Invalid value: "10.1.2": ${IP_MSG_133}`),
      c('subsets[0].addresses[0].ip', INV, 'Invalid value: "10.1.2": must be a valid IP address'),
    ],
  ],
  [
    'EP-3',
    'hostname a DNS-1123 label',
    post('endpoints', ep([{ notReadyAddresses: [addr('10.1.2.3', { hostname: 'web.1' })] }])),
    [c('subsets[0].notReadyAddresses[0].hostname', INV, `Invalid value: "web.1": ${DNS1123_LABEL_MSG}`)],
  ],
  [
    'EP-4',
    'nodeName a DNS-1123 subdomain',
    post('endpoints', ep([{ addresses: [addr('10.1.2.3', { nodeName: 'Node_1' })] }])),
    [c('subsets[0].addresses[0].nodeName', INV, `Invalid value: "Node_1": ${DNS1123_SUBDOMAIN_MSG}`)],
  ],
  [
    'EP-6',
    'address not unspecified',
    post('endpoints', ep([{ addresses: [addr('::')] }])),
    [c('subsets[0].addresses[0].ip', INV, 'Invalid value: "::": may not be unspecified (::)')],
  ],
  [
    'EP-7',
    'address not loopback',
    post('endpoints', ep([{ addresses: [addr('127.0.0.1')] }])),
    [
      c(
        'subsets[0].addresses[0].ip',
        INV,
        'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ),
    ],
  ],
  [
    'EP-8',
    'address not link-local',
    post('endpoints', ep([{ addresses: [addr('fe80::1')] }])),
    [
      c(
        'subsets[0].addresses[0].ip',
        INV,
        'Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      ),
    ],
  ],
  [
    'EP-9',
    'address not link-local multicast',
    post('endpoints', ep([{ addresses: [addr('224.0.0.251')] }])),
    [
      c(
        'subsets[0].addresses[0].ip',
        INV,
        'Invalid value: "224.0.0.251": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      ),
    ],
  ],
  [
    'EP-10',
    'port names required with several ports',
    post('endpoints', ep([{ addresses: [addr('10.1.2.3')], ports: [{ name: 'a', port: 80 }, { port: 81 }] }])),
    [c('subsets[0].ports[1].name', REQ, 'Required value')],
  ],
  [
    'EP-11',
    'port name a DNS-1123 label',
    post('endpoints', ep([{ addresses: [addr('10.1.2.3')], ports: [{ name: 'a_b', port: 80 }] }])),
    [c('subsets[0].ports[0].name', INV, `Invalid value: "a_b": ${DNS1123_LABEL_MSG}`)],
  ],
  [
    'EP-12',
    'port 1..65535',
    post('endpoints', ep([{ addresses: [addr('10.1.2.3')], ports: [{ port: 0 }] }])),
    [c('subsets[0].ports[0].port', INV, `Invalid value: 0: ${PORT_RANGE}`)],
  ],
  [
    'EP-14',
    'protocol TCP, UDP or SCTP',
    post('endpoints', ep([{ addresses: [addr('10.1.2.3')], ports: [{ port: 80, protocol: 'udp' }] }])),
    [c('subsets[0].ports[0].protocol', UNS, 'Unsupported value: "udp": supported values: "SCTP", "TCP", "UDP"')],
  ],
  // EP-5 (an address keeps its nodeName) is gone in 1.33: core-today.md E33-6.
  [
    'EP-15',
    'updates meet the create rules',
    () =>
      update(
        'endpoints',
        ep([{ addresses: [addr('10.1.2.3')] }]),
        (o) => ((o.subsets[0].addresses[0].ip = '127.0.0.1'), o),
      ),
    [
      c(
        'subsets[0].addresses[0].ip',
        INV,
        'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ),
    ],
  ],
];

const secretCases: Case[] = [
  [
    'SEC-1',
    'data keys are config keys',
    post('secrets', secret('Opaque', { 'a b': b64('x') })),
    [c('data[a b]', INV, `Invalid value: "a b": ${CONFIG_KEY_MSG}`)],
  ],
  [
    'SEC-2',
    'data keys at most 253 characters',
    post('secrets', secret('Opaque', { ['k'.repeat(254)]: b64('x') })),
    [c(`data[${'k'.repeat(254)}]`, INV, `Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`)],
  ],
  [
    'SEC-3',
    "data key not '.'",
    post('secrets', secret('Opaque', { '.': b64('x') })),
    [c('data[.]', INV, `Invalid value: ".": must not be '.'`)],
  ],
  [
    'SEC-4',
    "data key not '..'",
    post('secrets', secret('Opaque', { '..': b64('x') })),
    [c('data[..]', INV, `Invalid value: "..": must not be '..'`)],
  ],
  [
    'SEC-5',
    "data key not starting with '..'",
    post('secrets', secret('Opaque', { '..data': b64('x') })),
    [c('data[..data]', INV, `Invalid value: "..data": must not start with '..'`)],
  ],
  [
    'SEC-6',
    'data at most 1 MiB',
    post('secrets', secret('Opaque', { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') })),
    [c('data', LONG, 'Too long: must have at most 1048576 characters')],
  ],
  [
    'SEC-7',
    'service account token names its account',
    post('secrets', secret('kubernetes.io/service-account-token')),
    [c('metadata.annotations[kubernetes.io/service-account.name]', REQ, 'Required value')],
  ],
  [
    'SEC-8',
    'dockercfg has .dockercfg',
    post('secrets', secret('kubernetes.io/dockercfg')),
    [c('data[.dockercfg]', REQ, 'Required value')],
  ],
  [
    'SEC-9',
    '.dockercfg is a JSON object',
    post('secrets', secret('kubernetes.io/dockercfg', { '.dockercfg': b64('{bad') })),
    [
      c(
        'data[.dockercfg]',
        INV,
        `Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of object key string`,
      ),
    ],
  ],
  [
    'SEC-10',
    'dockerconfigjson has .dockerconfigjson',
    post('secrets', secret('kubernetes.io/dockerconfigjson')),
    [c('data[.dockerconfigjson]', REQ, 'Required value')],
  ],
  [
    'SEC-11',
    '.dockerconfigjson is a JSON object',
    post('secrets', secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('["auths"]') })),
    [
      c(
        'data[.dockerconfigjson]',
        INV,
        'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      ),
    ],
  ],
  [
    'SEC-12',
    'basic-auth has username or password',
    post('secrets', secret('kubernetes.io/basic-auth')),
    [c('data[%s][username]', REQ, 'Required value'), c('data[%s][password]', REQ, 'Required value')],
  ],
  [
    'SEC-13',
    'ssh-auth has ssh-privatekey',
    post('secrets', secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })),
    [c('data[%s][ssh-privatekey]', REQ, 'Required value')],
  ],
  [
    'SEC-14',
    'tls has tls.crt (issue #13)',
    post('secrets', secret('kubernetes.io/tls', { 'tls.key': b64('key') })),
    [c('data[tls.crt]', REQ, 'Required value')],
  ],
  [
    'SEC-15',
    'tls has tls.key',
    post('secrets', secret('kubernetes.io/tls', { 'tls.crt': b64('crt') })),
    [c('data[tls.key]', REQ, 'Required value')],
  ],
  [
    'SEC-16',
    'type immutable (update)',
    () =>
      update(
        'secrets',
        secret('kubernetes.io/tls', { 'tls.crt': b64('c'), 'tls.key': b64('k') }),
        (o) => ((o.type = 'Opaque'), o),
      ),
    [c('type', INV, 'Invalid value: "Opaque": field is immutable')],
  ],
  [
    'SEC-17',
    'updates meet the create rules',
    () =>
      update(
        'secrets',
        secret('kubernetes.io/tls', { 'tls.crt': b64('c'), 'tls.key': b64('k') }),
        (o) => (delete o.data['tls.key'], o),
      ),
    [c('data[tls.key]', REQ, 'Required value')],
  ],
];

const configMapCases: Case[] = [
  [
    'CM-1',
    'data keys are config keys',
    post('configmaps', cm({ 'a/b': 'x' })),
    [c('data[a/b]', INV, `Invalid value: "a/b": ${CONFIG_KEY_MSG}`)],
  ],
  [
    'CM-2',
    'a key in data or binaryData, not both',
    post('configmaps', cm({ k: 'x' }, { k: b64('y') })),
    [c('data[k]', INV, 'Invalid value: "k": duplicate of key present in binaryData')],
  ],
  [
    'CM-3',
    'binaryData keys are config keys',
    post('configmaps', cm({}, { '..bin': b64('y') })),
    [c('binaryData[..bin]', INV, `Invalid value: "..bin": must not start with '..'`)],
  ],
  [
    'CM-4',
    'data and binaryData at most 1 MiB',
    post('configmaps', cm({ a: 'x'.repeat(1024 * 1024) }, { b: b64('y') })),
    [c('', LONG, 'Too long: must have at most 1048576 characters')],
  ],
  [
    'CM-5',
    'updates meet the create rules',
    () => update('configmaps', cm({ ok: 'x' }), (o) => ((o.data['bad key'] = 'y'), o)),
    [c('data[bad key]', INV, `Invalid value: "bad key": ${CONFIG_KEY_MSG}`)],
  ],
];

const serviceAccountCases: Case[] = [
  [
    'SA-1',
    'name a DNS-1123 subdomain (ValidateServiceAccountName)',
    post('serviceaccounts', { metadata: { name: 'Bad_Name' } }),
    [c('metadata.name', INV, `Invalid value: "Bad_Name": ${DNS1123_SUBDOMAIN_MSG}`)],
  ],
];

describe.each([
  ['Service', serviceCases],
  ['Endpoints', endpointCases],
  ['Secret', secretCases],
  ['ConfigMap', configMapCases],
  ['ServiceAccount', serviceAccountCases],
] as const)('%s rules', (_kind, cases) => {
  it.each(cases)('%s %s', async (_id, _rule, send, causes) => {
    const res = await send();
    expect(res.status, res.text).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.details.causes).toEqual(causes);
  });
});

describe('update rules that need the allocated values', () => {
  it('SVC-52 a needed health check node port may not change', async () => {
    const first = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local' });
    const created = await srv.api('POST', `${ns}/services`, first);
    expect(created.status, created.text).toBe(201);
    const port = created.body.spec.healthCheckNodePort as number;
    const changed = port === 32767 ? port - 1 : port + 1;
    const res = await srv.api('PUT', `${ns}/services/${first.metadata.name}`, {
      ...created.body,
      spec: { ...created.body.spec, healthCheckNodePort: changed },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.causes).toEqual([c('spec.healthCheckNodePort', FORB, 'Forbidden: field is immutable')]);
  });

  it.each([
    ['SVC-53', { ip: '10.0.0' }, c('status.loadBalancer.ingress[0].ip', INV, `Invalid value: "10.0.0": ${IP_MSG_133}`)],
    [
      'SVC-54',
      { hostname: 'LB.example.com' },
      c('status.loadBalancer.ingress[0].hostname', INV, `Invalid value: "LB.example.com": ${DNS1123_SUBDOMAIN_MSG}`),
    ],
    [
      'SVC-55',
      { hostname: '10.0.0.9' },
      c(
        'status.loadBalancer.ingress[0].hostname',
        INV,
        'Invalid value: "10.0.0.9": must be a DNS name, not an IP address',
      ),
    ],
  ])('%s load balancer status (status update)', async (_id, ingress, cause) => {
    const res = await update(
      'services',
      svc({ type: 'LoadBalancer' }),
      (o) => ((o.status = { loadBalancer: { ingress: [ingress] } }), o),
      '/status',
    );
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.causes).toEqual([cause]);
  });
});

describe('immutable Secrets and ConfigMaps (upstream 1.21+)', () => {
  const LOCKED = 'Forbidden: field is immutable when `immutable` is set';
  it.each([
    [
      'SEC-18',
      'secrets',
      { ...secret('Opaque', { a: b64('1') }), immutable: true },
      (o: any) => ((o.data = { a: b64('2') }), o),
      [c('data', FORB, LOCKED)],
    ],
    [
      'SEC-19',
      'secrets',
      { ...secret('Opaque', { a: b64('1') }), immutable: true },
      (o: any) => ((o.immutable = false), o),
      [c('immutable', FORB, LOCKED)],
    ],
    [
      'CM-6',
      'configmaps',
      { ...cm({ a: '1' }), immutable: true },
      (o: any) => ((o.data = { a: '2' }), o),
      [c('data', FORB, LOCKED)],
    ],
    [
      'CM-7',
      'configmaps',
      { ...cm({ a: '1' }, { b: b64('x') }), immutable: true },
      (o: any) => ((o.binaryData = { b: b64('y') }), o),
      [c('binaryData', FORB, LOCKED)],
    ],
    [
      'CM-8',
      'configmaps',
      { ...cm({ a: '1' }), immutable: true },
      (o: any) => (delete o.immutable, o),
      [c('immutable', FORB, LOCKED)],
    ],
  ])('%s', async (_id, plural, first, change, causes) => {
    const res = await update(plural, first, change);
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.causes).toEqual(causes);
  });

  it('lets a mutable Secret become immutable, and an immutable one change its labels', async () => {
    const first = secret('Opaque', { a: b64('1') });
    const locked = await update('secrets', first, (o) => ((o.immutable = true), o));
    expect(locked.status, locked.text).toBe(200);
    const labelled = await srv.api('PUT', `${ns}/secrets/${first.metadata.name}`, {
      ...locked.body,
      metadata: { ...locked.body.metadata, labels: { tier: 'x' } },
    });
    expect(labelled.status, labelled.text).toBe(200);
  });
});

describe('valid objects stay accepted', () => {
  it.each([
    [
      'LoadBalancer on the kubelet port (SVC-2, no longer a rule)',
      'services',
      svc({ type: 'LoadBalancer', ports: [{ port: 10250 }] }),
    ],
    ['SCTP port (SVC-14: SCTP is supported)', 'services', svc({ ports: [{ port: 80, protocol: 'SCTP' }] })],
    [
      'affinity config with None is dropped by defaulting (SVC-29)',
      'services',
      svc({ sessionAffinity: 'None', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } }),
    ],
    [
      'LoadBalancer with mixed protocols (SVC-39, no longer a rule)',
      'services',
      svc({
        type: 'LoadBalancer',
        ports: [
          { name: 'a', port: 80 },
          { name: 'b', port: 81, protocol: 'UDP' },
        ],
      }),
    ],
    ['headless service without ports', 'services', svc({ clusterIP: 'None', ports: [] })],
    [
      'ExternalName service',
      'services',
      { metadata: { name: 'ext-ok' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } },
    ],
    [
      'LoadBalancer with source ranges and Local traffic',
      'services',
      svc({
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        loadBalancerSourceRanges: ['10.0.0.0/8', ' 192.168.0.0/16'],
      }),
    ],
    [
      'named target port and ClientIP affinity',
      'services',
      svc({ ports: [{ name: 'web', port: 80, targetPort: 'http-alt' }], sessionAffinity: 'ClientIP' }),
    ],
    [
      'headless endpoints without ports, IPv6',
      'endpoints',
      ep([{ addresses: [addr('fd00::5', { hostname: 'web-0', nodeName: 'node.a' })] }]),
    ],
    ['basic-auth with only a password', 'secrets', secret('kubernetes.io/basic-auth', { password: b64('p') })],
    [
      'dockerconfigjson with null',
      'secrets',
      secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64(' null ') }),
    ],
  ])('%s', async (_what, plural, body) => {
    const res = await srv.api('POST', `${ns}/${plural}`, body);
    expect(res.status, res.text).toBe(201);
  });
});

/** One case per rule of docs/validation/apiservices.md (APIService, apiregistration.k8s.io v1 and v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import { invalidValue, required, unsupported, validationSuite, type Call } from '../helpers/validation-cases.js';

const srv = useTestServer();
const V1 = '/apis/apiregistration.k8s.io/v1/apiservices';
const SPEC = { group: 'x.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10 };
const svc = { namespace: 'ns', name: 'api' };
const api = (name: string, over: object = {}): Call => ['POST', V1, { metadata: { name }, spec: { ...SPEC, ...over } }];
const named = (group: string, version: string, over: object = {}): Call =>
  api(`${version}.${group}`, { group, version, ...over });
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

validationSuite(
  'APIService validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 name is <version>.<group>',
      call: api('v2.x.example.com'),
      cause: invalidValue(
        'metadata.name',
        '"v2.x.example.com"',
        'must be `spec.version+"."+spec.group`: "v1.x.example.com"',
      ),
    },
    {
      rule: '2 only v1 may have an empty group',
      call: named('', 'v2'),
      cause: required('spec.group', 'only v1 may have an empty group and it better be legacy kube'),
    },
    {
      rule: '3 group a DNS subdomain',
      call: named('X.com', 'v1'),
      cause: invalidValue('spec.group', '"X.com"', subdomain),
    },
    {
      rule: '4 version a DNS-1035 label',
      call: named('y.example.com', '1v'),
      cause: invalidValue('spec.version', '"1v"', dns1035),
    },
    {
      rule: '5 groupPriorityMinimum 1 to 20000',
      call: named('g5.example.com', 'v1', { groupPriorityMinimum: 20001 }),
      cause: invalidValue('spec.groupPriorityMinimum', '20001', 'must be positive and less than 20000'),
    },
    {
      rule: '6 versionPriority 1 to 1000',
      call: named('g6.example.com', 'v1', { versionPriority: 0 }),
      cause: invalidValue('spec.versionPriority', '0', 'must be positive and less than 1000'),
    },
    {
      rule: '7 a local APIService has no caBundle',
      call: named('g7.example.com', 'v1', { caBundle: 'YWJj' }),
      cause: invalidValue('spec.caBundle', '"3 bytes"', 'local APIServices may not have a caBundle'),
    },
    {
      rule: '8 a local APIService has no insecureSkipTLSVerify',
      call: named('g8.example.com', 'v1', { insecureSkipTLSVerify: true }),
      cause: invalidValue('spec.insecureSkipTLSVerify', 'true', 'local APIServices may not have insecureSkipTLSVerify'),
    },
    {
      rule: '9 service namespace required',
      call: named('g9.example.com', 'v1', { service: { name: 'api' } }),
      cause: required('spec.service.namespace'),
    },
    {
      rule: '10 service name required',
      call: named('g10.example.com', 'v1', { service: { namespace: 'ns' } }),
      cause: required('spec.service.name'),
    },
    {
      rule: '11 service port valid',
      call: named('g11.example.com', 'v1', { service: { ...svc, port: 0 } }),
      cause: invalidValue('spec.service.port', '0', 'port is not valid: must be between 1 and 65535, inclusive'),
    },
    {
      rule: '12 insecureSkipTLSVerify not with a caBundle',
      call: named('g12.example.com', 'v1', { service: svc, caBundle: 'YWJj', insecureSkipTLSVerify: true }),
      cause: invalidValue('spec.insecureSkipTLSVerify', 'true', 'may not be true if caBundle is present'),
    },
    {
      rule: '13 status condition True, False or Unknown',
      setup: [named('g13.example.com', 'v1', { service: svc })],
      call: [
        'PUT',
        `${V1}/v1.g13.example.com/status`,
        {
          metadata: { name: 'v1.g13.example.com' },
          spec: { ...SPEC, group: 'g13.example.com', service: svc },
          status: { conditions: [{ type: 'Available', status: 'Yes' }] },
        },
      ],
      cause: unsupported('status.conditions[0].status', 'Yes', ['True', 'False', 'Unknown']),
    },
    {
      rule: '14 the same rules on update',
      setup: [named('g14.example.com', 'v1')],
      call: [
        'PUT',
        `${V1}/v1.g14.example.com`,
        {
          metadata: { name: 'v1.g14.example.com' },
          spec: { ...SPEC, group: 'g14.example.com', versionPriority: 1001 },
        },
      ],
      cause: invalidValue('spec.versionPriority', '1001', 'must be positive and less than 1000'),
    },
  ],
  [
    named('ok.example.com', 'v1'),
    // An empty group with v1: the server's own `v1.` (registered at start), replaced.
    ['PUT', `${V1}/v1.`, { metadata: { name: 'v1.' }, spec: { ...SPEC, group: '', version: 'v1' } }],
    named('ok2.example.com', 'v2', { service: { ...svc, port: 8443 }, caBundle: 'YWJj' }),
  ],
);

/** One case per rule of docs/validation/endpointslices.md (EndpointSlice, discovery.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  immutable,
  invalidValue,
  merge,
  required,
  tooMany,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const SLICES = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
const slice = (name: string, fields: object): Call => [
  'POST',
  SLICES,
  { metadata: { name }, addressType: 'IPv4', endpoints: [], ...fields },
];
const ep = (fields: object = {}) => ({ addresses: ['10.0.0.1'], ...fields });
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

validationSuite(
  'EndpointSlice validation (one case per rule)',
  () => srv,
  [
    { rule: '1 addressType required', call: slice('ves-1', { addressType: '' }), cause: required('addressType') },
    {
      rule: '2 addressType supported',
      call: slice('ves-2', { addressType: 'IP' }),
      cause: unsupported('addressType', 'IP', ['FQDN', 'IPv4', 'IPv6']),
    },
    {
      rule: '3 at most 1000 endpoints',
      call: slice('ves-3', { endpoints: Array.from({ length: 1001 }, () => ep()) }),
      cause: tooMany('endpoints', 1001, 1000),
    },
    {
      rule: '4 at least 1 address',
      call: slice('ves-4', { endpoints: [ep({ addresses: [] })] }),
      cause: required('endpoints[0].addresses', 'must contain at least 1 address'),
    },
    {
      rule: '5 at most 100 addresses',
      call: slice('ves-5', {
        endpoints: [ep({ addresses: Array.from({ length: 101 }, (_, i) => `10.0.1.${i + 1}`) })],
      }),
      cause: tooMany('endpoints[0].addresses', 101, 100),
    },
    {
      rule: '6 IPv4 addresses',
      call: slice('ves-6', { endpoints: [ep({ addresses: ['fd00::1'] })] }),
      cause: invalidValue('endpoints[0].addresses[0]', '"fd00::1"', 'must be a valid IPv4 address'),
    },
    {
      rule: '7 IPv6 addresses',
      call: slice('ves-7', { addressType: 'IPv6', endpoints: [ep({ addresses: ['10.0.0.1'] })] }),
      cause: invalidValue('endpoints[0].addresses[0]', '"10.0.0.1"', 'must be a valid IPv6 address'),
    },
    {
      rule: '8 addresses valid IPs',
      call: slice('ves-8', { endpoints: [ep({ addresses: ['ten'] })] }),
      cause: invalidValue('endpoints[0].addresses[0]', '"ten"', 'must be a valid IP address'),
    },
    {
      rule: '9 addresses not unspecified',
      call: slice('ves-9', { endpoints: [ep({ addresses: ['0.0.0.0'] })] }),
      cause: invalidValue('endpoints[0].addresses[0]', '"0.0.0.0"', 'may not be unspecified (0.0.0.0)'),
    },
    {
      rule: '10 addresses not loopback',
      call: slice('ves-10', { endpoints: [ep({ addresses: ['127.0.0.1'] })] }),
      cause: invalidValue(
        'endpoints[0].addresses[0]',
        '"127.0.0.1"',
        'may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ),
    },
    {
      rule: '11 addresses not link-local',
      call: slice('ves-11', { endpoints: [ep({ addresses: ['169.254.1.1'] })] }),
      cause: invalidValue(
        'endpoints[0].addresses[0]',
        '"169.254.1.1"',
        'may not be in the link-local range (169.254.0.0/16, fe80::/10)',
      ),
    },
    {
      rule: '12 addresses not link-local multicast',
      call: slice('ves-12', { addressType: 'IPv6', endpoints: [ep({ addresses: ['ff02::1'] })] }),
      cause: invalidValue(
        'endpoints[0].addresses[0]',
        '"ff02::1"',
        'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
      ),
    },
    {
      rule: '13 FQDN addresses DNS subdomains',
      call: slice('ves-13', { addressType: 'FQDN', endpoints: [ep({ addresses: ['Web.example.com'] })] }),
      cause: invalidValue('endpoints[0].addresses[0]', '"Web.example.com"', SUBDOMAIN),
    },
    {
      rule: '14 FQDN addresses of two segments',
      call: slice('ves-14', { addressType: 'FQDN', endpoints: [ep({ addresses: ['web'] })] }),
      cause: invalidValue(
        'endpoints[0].addresses[0]',
        '"web"',
        'should be a domain with at least two segments separated by dots',
      ),
    },
    {
      rule: '15 nodeName a node name',
      call: slice('ves-15', { endpoints: [ep({ nodeName: 'Node_1' })] }),
      cause: invalidValue('endpoints[0].nodeName', '"Node_1"', SUBDOMAIN),
    },
    {
      rule: '16 hostname a DNS label',
      call: slice('ves-16', { endpoints: [ep({ hostname: 'web.0' })] }),
      cause: invalidValue('endpoints[0].hostname', '"web.0"', LABEL),
    },
    {
      rule: '17 at most 8 zone hints',
      call: slice('ves-17', {
        endpoints: [ep({ hints: { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` })) } })],
      }),
      cause: tooMany('endpoints[0].hints.forZones', 9, 8),
    },
    {
      rule: '18 zone hints distinct',
      call: slice('ves-18', { endpoints: [ep({ hints: { forZones: [{ name: 'a' }, { name: 'a' }] } })] }),
      cause: duplicate('endpoints[0].hints.forZones[1].name', 'Duplicate value: "a"'),
    },
    {
      rule: '19 zone hints label values',
      call: slice('ves-19', { endpoints: [ep({ hints: { forZones: [{ name: 'zone a' }] } })] }),
      cause: invalidValue('endpoints[0].hints.forZones[0].name', '"zone a"', LABEL_VALUE),
    },
    {
      rule: '20 at most 20000 ports',
      call: slice('ves-20', { ports: Array.from({ length: 20001 }, (_, i) => ({ name: `p${i}` })) }),
      cause: tooMany('ports', 20001, 20000),
    },
    {
      rule: '21 port names DNS labels',
      call: slice('ves-21', { ports: [{ name: 'HTTP', port: 80 }] }),
      cause: invalidValue('ports[0].name', '"HTTP"', LABEL),
    },
    {
      rule: '22 port names distinct',
      call: slice('ves-22', { ports: [{ port: 80 }, { port: 81 }] }),
      cause: duplicate('ports[1].name', 'Duplicate value: ""'),
    },
    {
      rule: '23 port protocols supported',
      call: slice('ves-23', { ports: [{ name: 'a', protocol: 'ICMP' }] }),
      cause: unsupported('ports[0].protocol', 'ICMP', ['SCTP', 'TCP', 'UDP']),
    },
    {
      rule: '24 appProtocol a qualified name',
      call: slice('ves-24', { ports: [{ name: 'a', appProtocol: 'my proto' }] }),
      cause: invalidValue('ports[0].appProtocol', '"my proto"', NAME_PART),
    },
    {
      rule: '25 addressType immutable',
      setup: [slice('ves-25', {})],
      call: ['PATCH', `${SLICES}/ves-25`, { addressType: 'IPv6' }, merge],
      cause: immutable('addressType', '"IPv6"'),
    },
  ],
  [
    slice('ves-ok-1', {
      endpoints: [ep({ nodeName: 'node-1', hostname: 'web-0', hints: { forZones: [{ name: 'a' }] } })],
      ports: [
        { name: 'http', port: 80, appProtocol: 'kubernetes.io/h2c' },
        { name: 'dns', port: 53, protocol: 'UDP' },
      ],
    }),
    slice('ves-ok-2', { addressType: 'FQDN', endpoints: [ep({ addresses: ['web.example.com.'] })] }),
    slice('ves-ok-3', { addressType: 'IPv6', endpoints: [ep({ addresses: ['fd00::1'] })], ports: [{}] }),
  ],
);

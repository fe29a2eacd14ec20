/** One case per rule of docs/validation/networkpolicies.md (NetworkPolicy, networking.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const NPS = '/apis/networking.k8s.io/v1/namespaces/default/networkpolicies';
const EXT = '/apis/extensions/v1beta1/namespaces/default/networkpolicies';
const np = (name: string, spec: object, at = NPS): Call => ['POST', at, { metadata: { name }, spec }];
/** A policy with one ingress rule. */
const rule = (name: string, r: object): Call => np(name, { podSelector: {}, ingress: [r] });
const port = (name: string, p: object): Call => rule(name, { ports: [p] });
const from = (name: string, peer: object): Call => rule(name, { from: [peer] });
const P0 = 'spec.ingress[0].ports[0]';
const F0 = 'spec.ingress[0].from[0]';
const CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

validationSuite(
  'NetworkPolicy validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 port protocol TCP, UDP or SCTP',
      call: port('vnp-1', { protocol: 'ICMP', port: 80 }),
      cause: unsupported(`${P0}.protocol`, 'ICMP', ['TCP', 'UDP', 'SCTP']),
    },
    {
      rule: '2 numeric port a port number',
      call: port('vnp-2', { port: 70000 }),
      cause: invalidValue(`${P0}.port`, '70000', 'must be between 1 and 65535, inclusive'),
    },
    {
      rule: '3 endPort at least port',
      call: port('vnp-3', { port: 80, endPort: 79 }),
      cause: invalidValue(`${P0}.endPort`, '79', 'must be greater than or equal to `port`'),
    },
    {
      rule: '4 endPort a port number',
      call: port('vnp-4', { port: 80, endPort: 70000 }),
      cause: invalidValue(`${P0}.endPort`, '70000', 'must be between 1 and 65535, inclusive'),
    },
    {
      rule: '5 no endPort with a named port',
      call: port('vnp-5', { port: 'http', endPort: 90 }),
      cause: invalidValue(`${P0}.endPort`, '90', 'may not be specified when `port` is non-numeric'),
    },
    {
      rule: '6 named port an IANA service name',
      call: port('vnp-6', { port: 'http--alt' }),
      cause: invalidValue(`${P0}.port`, '"http--alt"', 'must not contain consecutive hyphens'),
    },
    {
      rule: '7 no endPort without port',
      call: port('vnp-7', { endPort: 90 }),
      cause: invalidValue(`${P0}.endPort`, '90', 'may not be specified when `port` is not specified'),
    },
    {
      rule: '8 a peer names something',
      call: from('vnp-8', {}),
      cause: required(F0, 'must specify a peer'),
    },
    {
      rule: '9 ipBlock with no other peer',
      call: from('vnp-9', { ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }),
      cause: forbidden(F0, 'may not specify both ipBlock and another peer'),
    },
    {
      rule: '10 ipBlock cidr required',
      call: from('vnp-10', { ipBlock: { cidr: '' } }),
      cause: required(`${F0}.ipBlock.cidr`),
    },
    {
      rule: '11 ipBlock cidr a CIDR',
      call: from('vnp-11', { ipBlock: { cidr: '10.0.0.0' } }),
      cause: invalidValue(`${F0}.ipBlock.cidr`, '"10.0.0.0"', CIDR),
    },
    {
      rule: '12 except a CIDR',
      call: from('vnp-12', { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/333'] } }),
      cause: invalidValue(`${F0}.ipBlock.except[0]`, '"10.1.0.0/333"', CIDR),
    },
    {
      rule: '13 except a strict subset of cidr',
      call: from('vnp-13', { ipBlock: { cidr: '10.0.0.0/8', except: ['192.168.0.0/16'] } }),
      cause: invalidValue(`${F0}.ipBlock.except[0]`, '"192.168.0.0/16"', 'must be a strict subset of `cidr`'),
    },
    {
      rule: '14 peer podSelector a valid selector (In needs values)',
      call: from('vnp-14', { podSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }),
      cause: required(
        `${F0}.podSelector.matchExpressions[0].values`,
        "must be specified when `operator` is 'In' or 'NotIn'",
      ),
    },
    {
      rule: '15 peer namespaceSelector a valid selector (Exists takes no values)',
      call: from('vnp-15', {
        namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists', values: ['a'] }] },
      }),
      cause: forbidden(
        `${F0}.namespaceSelector.matchExpressions[0].values`,
        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ),
    },
    {
      rule: '16 podSelector operator a selector operator',
      call: np('vnp-16', { podSelector: { matchExpressions: [{ key: 'app', operator: 'Like', values: ['a'] }] } }),
      cause: invalidValue('spec.podSelector.matchExpressions[0].operator', '"Like"', 'not a valid selector operator'),
    },
    {
      rule: '17 podSelector key a label name',
      call: np('vnp-17', { podSelector: { matchExpressions: [{ key: '-app', operator: 'Exists' }] } }),
      cause: invalidValue('spec.podSelector.matchExpressions[0].key', '"-app"', NAME_PART),
    },
    {
      rule: '18 podSelector values label values',
      call: np('vnp-18', { podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['-x'] }] } }),
      cause: invalidValue('spec.podSelector.matchExpressions[0].values[0]', '"-x"', LABEL_VALUE),
    },
    {
      rule: '19 podSelector matchLabels labels',
      call: np('vnp-19', { podSelector: { matchLabels: { app: '-x' } } }),
      cause: invalidValue('spec.podSelector.matchLabels', '"-x"', LABEL_VALUE),
    },
    {
      rule: '20 egress rules: the same port and peer rules under spec.egress',
      call: np('vnp-20', { podSelector: {}, egress: [{ to: [{}], ports: [{ port: 0 }] }] }),
      cause: required('spec.egress[0].to[0]', 'must specify a peer'),
    },
    {
      rule: '21 at most two policyTypes',
      call: np('vnp-21', { podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] }),
      cause: invalidValue(
        'spec.policyTypes',
        '[]networking.PolicyType{"Ingress", "Egress", "Ingress"}',
        'may not specify more than two policyTypes',
      ),
    },
    {
      rule: '22 policyTypes Ingress or Egress',
      call: np('vnp-22', { podSelector: {}, policyTypes: ['Sideways'] }),
      cause: unsupported('spec.policyTypes[0]', 'Sideways', ['Ingress', 'Egress']),
    },
    {
      rule: '23 the same rules on update',
      setup: [np('vnp-23', { podSelector: {} })],
      call: ['PATCH', `${NPS}/vnp-23`, { spec: { policyTypes: ['Sideways'] } }, merge],
      cause: unsupported('spec.policyTypes[0]', 'Sideways', ['Ingress', 'Egress']),
    },
    {
      rule: '24 the same rules through extensions/v1beta1',
      call: np('vnp-24', { podSelector: {}, ingress: [{ ports: [{ protocol: 'ICMP' }] }] }, EXT),
      cause: unsupported(`${P0}.protocol`, 'ICMP', ['TCP', 'UDP', 'SCTP']),
    },
  ],
  [
    np('vnp-ok-1', {}),
    port('vnp-ok-2', { protocol: 'SCTP', port: 8000, endPort: 9000 }),
    from('vnp-ok-3', { ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }),
    from('vnp-ok-4', { ipBlock: { cidr: 'fd00::/8', except: ['fd00:1::/32'] } }),
    from('vnp-ok-5', { podSelector: {}, namespaceSelector: { matchLabels: { team: 'a' } } }),
    np('vnp-ok-6', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
  ],
);

/** One case per rule of docs/validation/ingressclasses.md (IngressClass, networking.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  forbidden,
  immutable,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const ICS = '/apis/networking.k8s.io/v1/ingressclasses';
const ic = (name: string, spec: object): Call => ['POST', ICS, { metadata: { name }, spec }];
const CONTROLLER = 'example.com/ingress';
/** A class with `parameters`. */
const params = (name: string, parameters: object): Call => ic(name, { controller: CONTROLLER, parameters });
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const HTTP_PATH = "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')";

validationSuite(
  'IngressClass validation (one case per rule)',
  () => srv,
  [
    { rule: '1 controller required', call: ic('vic-1', {}), cause: required('spec.controller') },
    {
      rule: '2 controller at most 250 bytes',
      call: ic('vic-2', { controller: `example.com/${'a'.repeat(240)}` }),
      cause: {
        field: 'spec.controller',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 250 bytes',
      },
    },
    {
      rule: '3 controller a domain-prefixed path',
      call: ic('vic-3', { controller: 'ingress-controller' }),
      cause: invalidValue(
        'spec.controller',
        '"ingress-controller"',
        'must be a domain-prefixed path (such as "acme.io/foo")',
      ),
    },
    {
      rule: "4 controller's domain a DNS subdomain",
      call: ic('vic-4', { controller: 'Example.com/ingress' }),
      cause: invalidValue('spec.controller', '"Example.com"', SUBDOMAIN),
    },
    {
      rule: "5 controller's path an HTTP path",
      call: ic('vic-5', { controller: 'example.com/a b' }),
      cause: invalidValue('spec.controller', '"a b"', HTTP_PATH),
    },
    {
      rule: '6 parameters apiGroup a DNS subdomain',
      call: params('vic-6', { apiGroup: 'Example.com', kind: 'Config', name: 'c' }),
      cause: invalidValue('spec.parameters.apiGroup', '"Example.com"', SUBDOMAIN),
    },
    {
      rule: '7 parameters kind required',
      call: params('vic-7', { kind: '', name: 'c' }),
      cause: required('spec.parameters.kind'),
    },
    {
      rule: '8 parameters kind a path segment name',
      call: params('vic-8', { kind: 'a%b', name: 'c' }),
      cause: invalidValue('spec.parameters.kind', '"a%b"', "may not contain '%'"),
    },
    {
      rule: '9 parameters name required',
      call: params('vic-9', { kind: 'Config', name: '' }),
      cause: required('spec.parameters.name'),
    },
    {
      rule: '10 parameters name a path segment name',
      call: params('vic-10', { kind: 'Config', name: '.' }),
      cause: invalidValue('spec.parameters.name', '"."', "may not be '.'"),
    },
    {
      rule: '11 parameters scope Cluster or Namespace',
      call: params('vic-11', { kind: 'Config', name: 'c', scope: 'Global' }),
      cause: unsupported('spec.parameters.scope', 'Global', ['Cluster', 'Namespace']),
    },
    {
      rule: '12 namespace required with scope Namespace',
      call: params('vic-12', { kind: 'Config', name: 'c', scope: 'Namespace' }),
      cause: required('spec.parameters.namespace', "`parameters.scope` is set to 'Namespace'"),
    },
    {
      rule: '13 namespace a DNS label',
      call: params('vic-13', { kind: 'Config', name: 'c', scope: 'Namespace', namespace: 'Team_A' }),
      cause: invalidValue('spec.parameters.namespace', '"Team_A"', LABEL),
    },
    {
      rule: '14 no namespace with scope Cluster',
      call: params('vic-14', { kind: 'Config', name: 'c', scope: 'Cluster', namespace: 'team-a' }),
      cause: forbidden('spec.parameters.namespace', "`parameters.scope` is set to 'Cluster'"),
    },
    {
      rule: '15 controller immutable',
      setup: [ic('vic-15', { controller: CONTROLLER })],
      call: ['PATCH', `${ICS}/vic-15`, { spec: { controller: 'example.com/other' } }, merge],
      cause: immutable('spec.controller', '"example.com/other"'),
    },
  ],
  [
    ic('vic-ok-1', { controller: CONTROLLER }),
    params('vic-ok-2', { apiGroup: 'k8s.example.com', kind: 'Config', name: 'c' }),
    params('vic-ok-3', { kind: 'Config', name: 'c', scope: 'Namespace', namespace: 'team-a' }),
  ],
);

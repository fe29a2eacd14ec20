/**
 * One case per rule of docs/validation/webhookconfigurations.md (ValidatingWebhookConfiguration
 * and MutatingWebhookConfiguration, admissionregistration.k8s.io v1 and v1beta1).
 */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  invalid,
  invalidValue,
  required,
  tooMany,
  unsupported,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const BETA = '/apis/admissionregistration.k8s.io/v1beta1/validatingwebhookconfigurations';
const RULE = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const hook = (over: object = {}) => ({
  name: 'a.example.com',
  clientConfig: { url: 'https://h.example.com/x' },
  rules: [RULE],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});
const vwc = (name: string, ...hooks: object[]): Call => ['POST', VWC, { metadata: { name }, webhooks: hooks }];
const rule = (name: string, over: object): Call => vwc(name, hook({ rules: [{ ...RULE, ...over }] }));
const url = (name: string, u: string): Call => vwc(name, hook({ clientConfig: { url: u } }));
const svc = (name: string, service: object): Call =>
  vwc(name, hook({ clientConfig: { service: { namespace: 'ns', name: 's', ...service } } }));
const form = '; desired format: https://host[/path]';
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1123 = subdomain;
const qualified =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const W = 'webhooks[0]';
const conditions = (list: object[]) => hook({ matchConditions: list });

const cases: ValidationCase[] = [
  { rule: '1 webhook name required', call: vwc('vw-1', hook({ name: '' })), cause: required(`${W}.name`) },
  {
    rule: '2 webhook name a DNS subdomain',
    call: vwc('vw-2', hook({ name: 'A.b.c' })),
    cause: invalidValue(`${W}.name`, '"A.b.c"', dns1123),
  },
  {
    rule: '3 webhook name has three segments',
    call: vwc('vw-3', hook({ name: 'a.b' })),
    cause: invalidValue(`${W}.name`, '"a.b"', 'should be a domain with at least three segments separated by dots'),
  },
  {
    rule: '4 webhook names unique (v1)',
    call: vwc('vw-4', hook(), hook()),
    cause: duplicate('webhooks[1].name', 'Duplicate value: "a.example.com"'),
  },
  {
    rule: '5 operations required',
    call: rule('vw-5', { operations: [] }),
    cause: required(`${W}.rules[0].operations`),
  },
  {
    rule: "6 operations '*' alone",
    call: rule('vw-6', { operations: ['*', 'CREATE'] }),
    cause: invalid(
      `${W}.rules[0].operations`,
      `Invalid value: []string{"*", "CREATE"}: if '*' is present, must not specify other operations`,
    ),
  },
  {
    rule: '7 operation supported',
    call: rule('vw-7', { operations: ['PATCH'] }),
    cause: unsupported(`${W}.rules[0].operations[0]`, 'PATCH', ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE']),
  },
  { rule: '8 apiGroups required', call: rule('vw-8', { apiGroups: [] }), cause: required(`${W}.rules[0].apiGroups`) },
  {
    rule: "9 apiGroups '*' alone",
    call: rule('vw-9', { apiGroups: ['*', 'apps'] }),
    cause: invalid(
      `${W}.rules[0].apiGroups`,
      `Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
    ),
  },
  {
    rule: '10 apiVersions required',
    call: rule('vw-10', { apiVersions: [] }),
    cause: required(`${W}.rules[0].apiVersions`),
  },
  {
    rule: "11 apiVersions '*' alone",
    call: rule('vw-11', { apiVersions: ['*', 'v1'] }),
    cause: invalid(
      `${W}.rules[0].apiVersions`,
      `Invalid value: []string{"*", "v1"}: if '*' is present, must not specify other API versions`,
    ),
  },
  { rule: '12 resources required', call: rule('vw-12', { resources: [] }), cause: required(`${W}.rules[0].resources`) },
  {
    rule: "13 resources '*/*' alone",
    call: rule('vw-13', { resources: ['*/*', 'pods'] }),
    cause: invalid(
      `${W}.rules[0].resources`,
      `Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
    ),
  },
  {
    rule: "14 resources '*' without other plain resources",
    call: rule('vw-14', { resources: ['*', 'pods'] }),
    cause: invalid(
      `${W}.rules[0].resources`,
      `Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
    ),
  },
  {
    rule: "15 resources 'x/*' excludes 'x/y'",
    call: rule('vw-15', { resources: ['pods/*', 'pods/log'] }),
    cause: invalidValue(
      `${W}.rules[0].resources[1]`,
      '"pods/log"',
      "if 'pods/*' is present, must not specify pods/log",
    ),
  },
  {
    rule: '16 scope supported',
    call: rule('vw-16', { scope: 'Global' }),
    cause: unsupported(`${W}.rules[0].scope`, 'Global', ['*', 'Cluster', 'Namespaced']),
  },
  {
    rule: '17 failurePolicy supported',
    call: vwc('vw-17', hook({ failurePolicy: 'Retry' })),
    cause: unsupported(`${W}.failurePolicy`, 'Retry', ['Fail', 'Ignore']),
  },
  {
    rule: '18 matchPolicy supported',
    call: vwc('vw-18', hook({ matchPolicy: 'Fuzzy' })),
    cause: unsupported(`${W}.matchPolicy`, 'Fuzzy', ['Equivalent', 'Exact']),
  },
  {
    rule: '19 sideEffects required (v1)',
    call: vwc('vw-19', hook({ sideEffects: undefined })),
    cause: required(`${W}.sideEffects`, 'must specify one of None, NoneOnDryRun'),
  },
  {
    rule: '20 sideEffects None or NoneOnDryRun (v1)',
    call: vwc('vw-20', hook({ sideEffects: 'Some' })),
    cause: unsupported(`${W}.sideEffects`, 'Some', ['None', 'NoneOnDryRun']),
  },
  {
    rule: '21 timeoutSeconds 1 to 30',
    call: vwc('vw-21', hook({ timeoutSeconds: 31 })),
    cause: invalidValue(`${W}.timeoutSeconds`, '31', 'the timeout value must be between 1 and 30 seconds'),
  },
  {
    rule: '22 namespaceSelector valid',
    call: vwc('vw-22', hook({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } })),
    cause: invalidValue(
      `${W}.namespaceSelector.matchExpressions[0].operator`,
      '"Near"',
      'not a valid selector operator',
    ),
  },
  {
    rule: '23 objectSelector valid',
    call: vwc('vw-23', hook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })),
    cause: required(
      `${W}.objectSelector.matchExpressions[0].values`,
      "must be specified when `operator` is 'In' or 'NotIn'",
    ),
  },
  {
    rule: '24 reinvocationPolicy supported (mutating)',
    call: ['POST', MWC, { metadata: { name: 'vw-24' }, webhooks: [hook({ reinvocationPolicy: 'Always' })] }],
    cause: unsupported(`${W}.reinvocationPolicy`, 'Always', ['IfNeeded', 'Never']),
  },
  {
    rule: '25 exactly one of url or service',
    call: vwc('vw-25', hook({ clientConfig: {} })),
    cause: required(`${W}.clientConfig`, 'exactly one of url or service is required'),
  },
  {
    rule: '26 url scheme https',
    call: url('vw-26', 'http://h.example.com'),
    cause: invalidValue(`${W}.clientConfig.url`, '"http"', `'https' is the only allowed URL scheme${form}`),
  },
  {
    rule: '27 url has a host',
    call: url('vw-27', 'https:///x'),
    cause: invalidValue(`${W}.clientConfig.url`, '""', `host must be specified${form}`),
  },
  {
    rule: '28 url without user information',
    call: url('vw-28', 'https://u:p@h.example.com'),
    cause: invalidValue(`${W}.clientConfig.url`, '"u:p"', 'user information is not permitted in the URL'),
  },
  {
    rule: '29 url without fragment',
    call: url('vw-29', 'https://h.example.com/x#f'),
    cause: invalidValue(`${W}.clientConfig.url`, '"f"', 'fragments are not permitted in the URL'),
  },
  {
    rule: '30 url without query',
    call: url('vw-30', 'https://h.example.com/x?q=1'),
    cause: invalidValue(`${W}.clientConfig.url`, '"q=1"', 'query parameters are not permitted in the URL'),
  },
  {
    rule: '31 service name required',
    call: svc('vw-31', { name: '' }),
    cause: required(`${W}.clientConfig.service.name`),
  },
  {
    rule: '32 service namespace required',
    call: svc('vw-32', { namespace: '' }),
    cause: required(`${W}.clientConfig.service.namespace`),
  },
  {
    rule: '33 service port valid',
    call: svc('vw-33', { port: 70000 }),
    cause: invalidValue(
      `${W}.clientConfig.service.port`,
      '70000',
      'port is not valid: must be between 1 and 65535, inclusive',
    ),
  },
  {
    rule: "34 service path starts with '/'",
    call: svc('vw-34', { path: 'hook' }),
    cause: invalidValue(`${W}.clientConfig.service.path`, '"hook"', "must start with a '/'"),
  },
  {
    rule: '35 service path segments are DNS subdomains',
    call: svc('vw-35', { path: '/Hook' }),
    cause: invalidValue(`${W}.clientConfig.service.path`, '"/Hook"', `segment[0]: ${dns1123}`),
  },
  {
    rule: '36 admissionReviewVersions required (v1)',
    call: vwc('vw-36', hook({ admissionReviewVersions: [] })),
    cause: required(`${W}.admissionReviewVersions`, 'must specify one of v1, v1beta1'),
  },
  {
    rule: '37 admissionReviewVersions without duplicates',
    call: vwc('vw-37', hook({ admissionReviewVersions: ['v1', 'v1'] })),
    cause: invalidValue(`${W}.admissionReviewVersions[1]`, '"v1"', 'duplicate version'),
  },
  {
    rule: '38 admissionReviewVersions DNS-1035 labels',
    call: vwc('vw-38', hook({ admissionReviewVersions: ['v1', 'V2'] })),
    cause: invalidValue(`${W}.admissionReviewVersions[1]`, '"V2"', dns1035),
  },
  {
    rule: '39 admissionReviewVersions include one this server understands',
    call: vwc('vw-39', hook({ admissionReviewVersions: ['v2'] })),
    cause: invalid(
      `${W}.admissionReviewVersions`,
      'Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    ),
  },
  {
    rule: '40 at most 64 matchConditions',
    call: vwc('vw-40', conditions(Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })))),
    cause: tooMany(`${W}.matchConditions`, 65, 64),
  },
  {
    rule: '41 matchCondition name required',
    call: vwc('vw-41', conditions([{ name: '', expression: 'true' }])),
    cause: required(`${W}.matchConditions[0].name`),
  },
  {
    rule: '42 matchCondition name qualified',
    call: vwc('vw-42', conditions([{ name: '-x', expression: 'true' }])),
    cause: invalidValue(`${W}.matchConditions[0].name`, '"-x"', qualified),
  },
  {
    rule: '43 matchCondition names unique',
    call: vwc(
      'vw-43',
      conditions([
        { name: 'c', expression: 'true' },
        { name: 'c', expression: 'false' },
      ]),
    ),
    cause: duplicate(`${W}.matchConditions[1].name`, 'Duplicate value: "c"'),
  },
  {
    rule: '44 matchCondition expression required',
    call: vwc('vw-44', conditions([{ name: 'c', expression: ' ' }])),
    cause: required(`${W}.matchConditions[0].expression`),
  },
];

validationSuite('Webhook configuration validation (one case per rule)', () => srv, cases, [
  vwc('vw-ok-1', hook({ rules: [{ ...RULE, resources: ['pods/*', 'deployments'] }], timeoutSeconds: 30 })),
  svc('vw-ok-2', { path: '/hooks/check', port: 8443 }),
  // v1beta1: side effects Some and repeated webhook names are accepted; admissionReviewVersions defaults.
  [
    'POST',
    BETA,
    {
      metadata: { name: 'vw-ok-3' },
      webhooks: [hook({ sideEffects: 'Some', admissionReviewVersions: undefined }), hook()],
    },
  ],
]);

/** One case per rule of docs/validation/flowschemas.md (FlowSchema, flowcontrol.apiserver.k8s.io/v1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  forbidden,
  invalid,
  invalidValue,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
const USER = { kind: 'User', user: { name: 'alice' } };
const PODS = { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] };
const HEALTH = { verbs: ['get'], nonResourceURLs: ['/healthz'] };
const LEVEL = { name: 'global-default' };

const schema = (name: string, spec: object): Call => [
  'POST',
  FS,
  {
    metadata: { name },
    spec: { priorityLevelConfiguration: LEVEL, rules: [{ subjects: [USER], resourceRules: [PODS] }], ...spec },
  },
];
const withRule = (name: string, rule: object): Call => schema(name, { rules: [rule] });
const withSubject = (name: string, subject: object): Call =>
  withRule(name, { subjects: [subject], resourceRules: [PODS] });
const withResourceRule = (name: string, over: object): Call =>
  withRule(name, { subjects: [USER], resourceRules: [{ ...PODS, ...over }] });
const withNonResourceRule = (name: string, over: object): Call =>
  withRule(name, { subjects: [USER], nonResourceRules: [{ ...HEALTH, ...over }] });
const status = (name: string, conditions: object[]): Call => [
  'PUT',
  `${FS}/${name}/status`,
  { metadata: { name }, spec: { priorityLevelConfiguration: LEVEL }, status: { conditions } },
];

const SUBJECT = 'spec.rules[0].subjects[0]';
const RESOURCE = 'spec.rules[0].resourceRules[0]';
const NON_RESOURCE = 'spec.rules[0].nonResourceRules[0]';
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const label =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const notSupportedVerbs = (field: string, shown: string) => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${shown}: supported values: ${VERBS.map((v) => JSON.stringify(v)).join(', ')}`,
});

/** A catch-all spec other than the fixed one, every default given (as the server prints it back). */
const CATCH_ALL_CHANGED = {
  priorityLevelConfiguration: { name: 'catch-all' },
  matchingPrecedence: 9999,
  distinguisherMethod: { type: 'ByUser' },
  rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [HEALTH] }],
};

validationSuite(
  'FlowSchema validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 matchingPrecedence positive',
      call: schema('fs1', { matchingPrecedence: -1 }),
      cause: invalidValue('spec.matchingPrecedence', '-1', 'must be a positive value'),
    },
    {
      rule: '2 matchingPrecedence at most 10000',
      call: schema('fs2', { matchingPrecedence: 10001 }),
      cause: invalidValue('spec.matchingPrecedence', '10001', 'must not be greater than 10000'),
    },
    {
      rule: '3 matchingPrecedence 1 only for exempt',
      call: schema('fs3', { matchingPrecedence: 1 }),
      cause: invalidValue(
        'spec.matchingPrecedence',
        '1',
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    },
    {
      rule: '4 distinguisherMethod ByUser or ByNamespace',
      call: schema('fs4', { distinguisherMethod: { type: 'ByGroup' } }),
      cause: {
        field: 'spec.distinguisherMethod.type',
        reason: 'FieldValueNotSupported',
        message:
          'Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser"',
      },
    },
    {
      rule: '5 priority level name required',
      call: schema('fs5', { priorityLevelConfiguration: { name: '' } }),
      cause: required('spec.priorityLevelConfiguration.name', 'must reference a priority level'),
    },
    {
      rule: '6 priority level name a DNS-1123 subdomain',
      call: schema('fs6', { priorityLevelConfiguration: { name: 'Bad_Level' } }),
      cause: invalidValue('spec.priorityLevelConfiguration.name', '"Bad_Level"', subdomain),
    },
    {
      rule: '7 a rule has subjects',
      call: withRule('fs7', { subjects: [], resourceRules: [PODS] }),
      cause: required('spec.rules[0].subjects', 'subjects must contain at least one value'),
    },
    {
      rule: '8 a rule has resource or non-resource rules',
      call: withRule('fs8', { subjects: [USER] }),
      cause: required('spec.rules[0]', 'at least one of resourceRules and nonResourceRules has to be non-empty'),
    },
    {
      rule: '9 subject kind User, Group or ServiceAccount',
      call: withSubject('fs9', { kind: 'Robot' }),
      cause: unsupported(`${SUBJECT}.kind`, 'Robot', ['Group', 'ServiceAccount', 'User']),
    },
    {
      rule: '10 serviceAccount required for kind ServiceAccount',
      call: withSubject('fs10', { kind: 'ServiceAccount' }),
      cause: required(`${SUBJECT}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"),
    },
    {
      rule: '11 service account name required',
      call: withSubject('fs11', { kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '' } }),
      cause: required(`${SUBJECT}.serviceAccount.name`),
    },
    {
      rule: '12 service account name * or a DNS-1123 subdomain',
      call: withSubject('fs12', { kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: 'Bad_SA' } }),
      cause: invalidValue(`${SUBJECT}.serviceAccount.name`, '"Bad_SA"', subdomain),
    },
    {
      rule: '13 service account namespace required',
      call: withSubject('fs13', { kind: 'ServiceAccount', serviceAccount: { namespace: '', name: 'sa' } }),
      cause: required(`${SUBJECT}.serviceAccount.namespace`, 'must specify namespace for service account'),
    },
    {
      rule: '14 service account namespace a DNS-1123 label',
      call: withSubject('fs14', { kind: 'ServiceAccount', serviceAccount: { namespace: 'bad.ns', name: 'sa' } }),
      cause: invalidValue(`${SUBJECT}.serviceAccount.namespace`, '"bad.ns"', label),
    },
    {
      rule: '15 user required for kind User',
      call: withSubject('fs15', { kind: 'User' }),
      cause: required(`${SUBJECT}.user`, "user is required when subject kind is 'User'"),
    },
    {
      rule: '16 user name required',
      call: withSubject('fs16', { kind: 'User', user: { name: '' } }),
      cause: required(`${SUBJECT}.user.name`),
    },
    {
      rule: '17 group required for kind Group',
      call: withSubject('fs17', { kind: 'Group' }),
      cause: required(`${SUBJECT}.group`, "group is required when subject kind is 'Group'"),
    },
    {
      rule: '18 group name required',
      call: withSubject('fs18', { kind: 'Group', group: { name: '' } }),
      cause: required(`${SUBJECT}.group.name`),
    },
    {
      rule: '19 user only for kind User',
      call: withSubject('fs19', { kind: 'Group', group: { name: 'g' }, user: { name: 'u' } }),
      cause: forbidden(`${SUBJECT}.user`, "user is forbidden when subject kind is not 'User'"),
    },
    {
      rule: '20 group only for kind Group',
      call: withSubject('fs20', { kind: 'User', user: { name: 'u' }, group: { name: 'g' } }),
      cause: forbidden(`${SUBJECT}.group`, "group is forbidden when subject kind is not 'Group'"),
    },
    {
      rule: '21 serviceAccount only for kind ServiceAccount',
      call: withSubject('fs21', { kind: 'User', user: { name: 'u' }, serviceAccount: { namespace: 'ns', name: 'sa' } }),
      cause: forbidden(
        `${SUBJECT}.serviceAccount`,
        "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
      ),
    },
    {
      rule: '22 resource rule verbs required',
      call: withResourceRule('fs22', { verbs: [] }),
      cause: required(`${RESOURCE}.verbs`, 'verbs must contain at least one value'),
    },
    {
      rule: '23 resource rule verbs: * alone',
      call: withResourceRule('fs23', { verbs: ['*', 'get'] }),
      cause: invalid(
        `${RESOURCE}.verbs`,
        `Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`,
      ),
    },
    {
      rule: '24 resource rule verbs supported',
      call: withResourceRule('fs24', { verbs: ['get', 'fly'] }),
      cause: notSupportedVerbs(`${RESOURCE}.verbs`, '[]string{"get", "fly"}'),
    },
    {
      rule: '25 apiGroups required',
      call: withResourceRule('fs25', { apiGroups: [] }),
      cause: required(`${RESOURCE}.apiGroups`, 'resource rules must supply at least one api group'),
    },
    {
      rule: '26 apiGroups: * alone',
      call: withResourceRule('fs26', { apiGroups: ['*', 'apps'] }),
      cause: invalid(
        `${RESOURCE}.apiGroups`,
        `Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`,
      ),
    },
    {
      rule: '27 resources required',
      call: withResourceRule('fs27', { resources: [] }),
      cause: required(`${RESOURCE}.resources`, 'resource rules must supply at least one resource'),
    },
    {
      rule: '28 resources: * alone',
      call: withResourceRule('fs28', { resources: ['pods', '*'] }),
      cause: invalid(
        `${RESOURCE}.resources`,
        `Invalid value: []string{"pods", "*"}: if '*' is present, must not specify other resources`,
      ),
    },
    {
      rule: '29 namespaces required unless clusterScope',
      call: withResourceRule('fs29', { namespaces: [] }),
      cause: required(
        `${RESOURCE}.namespaces`,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    },
    {
      rule: '30 namespaces: * alone',
      call: withResourceRule('fs30', { namespaces: ['*', 'default'] }),
      cause: invalid(
        `${RESOURCE}.namespaces`,
        `Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`,
      ),
    },
    {
      rule: '31 namespaces DNS-1123 labels',
      call: withResourceRule('fs31', { namespaces: ['default', 'Bad_NS'] }),
      cause: invalidValue(
        `${RESOURCE}.namespaces[1]`,
        '"Bad_NS"',
        `each member of this list must be '*' or a DNS-1123 label; ${label}`,
      ),
    },
    {
      rule: '32 non-resource rule verbs required',
      call: withNonResourceRule('fs32', { verbs: [] }),
      cause: required(`${NON_RESOURCE}.verbs`, 'verbs must contain at least one value'),
    },
    {
      rule: '33 non-resource rule verbs: * alone',
      call: withNonResourceRule('fs33', { verbs: ['get', '*'] }),
      cause: invalid(
        `${NON_RESOURCE}.verbs`,
        `Invalid value: []string{"get", "*"}: if '*' is present, must not specify other verbs`,
      ),
    },
    {
      rule: '34 non-resource rule verbs supported',
      call: withNonResourceRule('fs34', { verbs: ['post'] }),
      cause: notSupportedVerbs(`${NON_RESOURCE}.verbs`, '[]string{"post"}'),
    },
    {
      rule: '35 nonResourceURLs required',
      call: withNonResourceRule('fs35', { nonResourceURLs: [] }),
      cause: required(`${NON_RESOURCE}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'),
    },
    {
      rule: '36 nonResourceURLs: * alone',
      call: withNonResourceRule('fs36', { nonResourceURLs: ['*', '/healthz'] }),
      cause: invalid(
        `${NON_RESOURCE}.nonResourceURLs`,
        `Invalid value: []string{"*", "/healthz"}: if '*' is present, must not specify other non-resource URLs`,
      ),
    },
    {
      rule: '37 a URL is not empty',
      call: withNonResourceRule('fs37', { nonResourceURLs: [''] }),
      cause: invalidValue(`${NON_RESOURCE}.nonResourceURLs[0]`, '""', 'must not be empty'),
    },
    {
      rule: '38 a URL starts with a slash',
      call: withNonResourceRule('fs38', { nonResourceURLs: ['healthz'] }),
      cause: invalidValue(`${NON_RESOURCE}.nonResourceURLs[0]`, '"healthz"', 'must start with slash'),
    },
    {
      rule: '39 a URL has no white space',
      call: withNonResourceRule('fs39', { nonResourceURLs: ['/health z'] }),
      cause: invalidValue(`${NON_RESOURCE}.nonResourceURLs[0]`, '"/health z"', 'must not contain white-space'),
    },
    {
      rule: '40 a URL has no double slash',
      call: withNonResourceRule('fs40', { nonResourceURLs: ['/api//v1'] }),
      cause: invalidValue(`${NON_RESOURCE}.nonResourceURLs[0]`, '"/api//v1"', 'must not contain double slash'),
    },
    {
      rule: '41 a URL wildcard only as the last segment',
      call: withNonResourceRule('fs41', { nonResourceURLs: ['/health*'] }),
      cause: invalidValue(`${NON_RESOURCE}.nonResourceURLs[0]`, '"/health*"', 'wildcard can only do suffix matching'),
    },
    {
      rule: '42 a mandatory schema keeps its fixed spec',
      call: ['POST', FS, { metadata: { name: 'catch-all' }, spec: CATCH_ALL_CHANGED }],
      cause: invalidValue('spec', JSON.stringify(CATCH_ALL_CHANGED), "spec of 'catch-all' must equal the fixed value"),
    },
    {
      rule: '43 status condition type required',
      setup: [schema('fs43', {})],
      call: status('fs43', [{ type: '', status: 'True' }]),
      cause: required('status.conditions[0].type', 'must not be empty'),
    },
    {
      rule: '44 status condition types unique',
      setup: [schema('fs44', {})],
      call: status('fs44', [
        { type: 'Example', status: 'True' },
        { type: 'Example', status: 'False' },
      ]),
      cause: duplicate('status.conditions[1].type', 'Duplicate value: "Example"'),
    },
    {
      rule: '45 the same rules on update',
      setup: [schema('fs45', {})],
      call: [
        'PUT',
        `${FS}/fs45`,
        { metadata: { name: 'fs45' }, spec: { priorityLevelConfiguration: LEVEL, matchingPrecedence: -5 } },
      ],
      cause: invalidValue('spec.matchingPrecedence', '-5', 'must be a positive value'),
    },
  ],
  [
    schema('ok-bounds', { matchingPrecedence: 10000, distinguisherMethod: { type: 'ByUser' } }),
    withSubject('ok-sa', { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }),
    withResourceRule('ok-cluster', {
      verbs: ['*'],
      apiGroups: ['*'],
      resources: ['*'],
      namespaces: [],
      clusterScope: true,
    }),
    withNonResourceRule('ok-urls', { verbs: ['*'], nonResourceURLs: ['/', '/healthz/*', '/version'] }),
    withRule('ok-empty-rules', { subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [HEALTH] }),
    schema('ok-no-rules', { rules: [] }),
  ],
);

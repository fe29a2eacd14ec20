/**
 * Validation of the ValidatingAdmissionPolicy kinds on write (upstream 1.33
 * pkg/apis/admissionregistration/validation): one case per main rule with upstream's cause
 * (422), a whole message in upstream's order, and the compile errors of the policy's CEL
 * expressions (validations, messageExpressions, audit annotations, match conditions, variables).
 */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  forbidden,
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
const BASE = '/apis/admissionregistration.k8s.io/v1';
const VAP = `${BASE}/validatingadmissionpolicies`;
const VAPB = `${BASE}/validatingadmissionpolicybindings`;
const RULE = {
  operations: ['CREATE'],
  apiGroups: ['fixtures.example.com'],
  apiVersions: ['v1'],
  resources: ['nothings'],
};
const spec = (over: object = {}) => ({
  matchConstraints: { resourceRules: [RULE] },
  validations: [{ expression: 'true' }],
  ...over,
});
const policy = (name: string, over: object = {}): Call => ['POST', VAP, { metadata: { name }, spec: spec(over) }];
const binding = (name: string, over: object = {}): Call => [
  'POST',
  VAPB,
  { metadata: { name }, spec: { policyName: 'p.example.com', validationActions: ['Deny'], ...over } },
];
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

const P = 'spec';
const policyCases: ValidationCase[] = [
  {
    rule: 'matchConstraints required',
    call: ['POST', VAP, { metadata: { name: 'v-1' }, spec: { validations: [{ expression: 'true' }] } }],
    cause: required(`${P}.matchConstraints`),
  },
  {
    rule: 'at least one resource rule',
    call: policy('v-2', { matchConstraints: {} }),
    cause: required(`${P}.matchConstraints.resourceRules`),
  },
  {
    rule: 'validations or auditAnnotations',
    call: policy('v-3', { validations: [] }),
    cause: required(`${P}.validations`, 'validations or auditAnnotations must contain at least one item'),
  },
  {
    rule: 'failurePolicy supported',
    call: policy('v-4', { failurePolicy: 'Maybe' }),
    cause: unsupported(`${P}.failurePolicy`, 'Maybe', ['Fail', 'Ignore']),
  },
  {
    rule: 'matchPolicy supported',
    call: policy('v-5', { matchConstraints: { resourceRules: [RULE], matchPolicy: 'Loose' } }),
    cause: unsupported(`${P}.matchConstraints.matchPolicy`, 'Loose', ['Equivalent', 'Exact']),
  },
  {
    rule: 'rule operations supported',
    call: policy('v-6', { matchConstraints: { resourceRules: [{ ...RULE, operations: ['PATCH'] }] } }),
    cause: unsupported(`${P}.matchConstraints.resourceRules[0].operations[0]`, 'PATCH', [
      '*',
      'CONNECT',
      'CREATE',
      'DELETE',
      'UPDATE',
    ]),
  },
  {
    rule: 'resource names are path segments, once each',
    call: policy('v-7', { matchConstraints: { resourceRules: [{ ...RULE, resourceNames: ['a', 'a'] }] } }),
    cause: duplicate(`${P}.matchConstraints.resourceRules[0].resourceNames[1]`, 'Duplicate value: "a"'),
  },
  {
    rule: 'paramKind kind a DNS-1035 label in any case',
    call: policy('v-8', { paramKind: { apiVersion: 'v1', kind: 'Config_Map' } }),
    cause: invalidValue(
      `${P}.paramKind.kind`,
      '"Config_Map"',
      `may have mixed case, but should otherwise match: ${dns1035}`,
    ),
  },
  {
    rule: 'paramKind apiVersion required',
    call: policy('v-9', { paramKind: { kind: 'ConfigMap' } }),
    cause: required(`${P}.paramKind.apiVersion`),
  },
  {
    rule: 'validation expression required',
    call: policy('v-10', { validations: [{ expression: ' ' }] }),
    cause: required(`${P}.validations[0].expression`, 'expression is not specified'),
  },
  {
    rule: 'validation message without line breaks',
    call: policy('v-11', { validations: [{ expression: 'true', message: 'a\nb' }] }),
    cause: invalidValue(`${P}.validations[0].message`, '"a\\nb"', 'message must not contain line breaks'),
  },
  {
    rule: 'validation reason supported',
    call: policy('v-12', { validations: [{ expression: 'true', reason: 'Unauthorized' }] }),
    cause: unsupported(`${P}.validations[0].reason`, 'Unauthorized', ['Forbidden', 'Invalid', 'RequestEntityTooLarge']),
  },
  {
    rule: 'variable names are CEL identifiers',
    call: policy('v-13', { variables: [{ name: '4ever', expression: 'true' }] }),
    cause: invalidValue(`${P}.variables[0].name`, '"4ever"', 'name is not a valid CEL identifier'),
  },
  {
    rule: 'audit annotation keys once each',
    call: policy('v-14', {
      validations: [],
      auditAnnotations: [
        { key: 'k', valueExpression: "'a'" },
        { key: 'k', valueExpression: "'b'" },
      ],
    }),
    cause: duplicate(`${P}.auditAnnotations[1].key`, 'Duplicate value: "k"'),
  },
  {
    rule: 'match conditions named once each',
    call: policy('v-15', {
      matchConditions: [
        { name: 'a', expression: 'true' },
        { name: 'a', expression: 'true' },
      ],
    }),
    cause: duplicate(`${P}.matchConditions[1].name`, 'Duplicate value: "a"'),
  },
  {
    rule: 'at most 64 match conditions',
    call: policy('v-16', {
      matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })),
    }),
    cause: tooMany(`${P}.matchConditions`, 65, 64),
  },
  {
    rule: 'selectors are checked strictly',
    call: policy('v-17', {
      matchConstraints: {
        resourceRules: [RULE],
        objectSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] },
      },
    }),
    cause: invalidValue(
      `${P}.matchConstraints.objectSelector.matchExpressions[0].operator`,
      '"Near"',
      'not a valid selector operator',
    ),
  },
];

const bindingCases: ValidationCase[] = [
  { rule: 'policyName required', call: binding('b-1', { policyName: '' }), cause: required('spec.policyName') },
  {
    rule: 'validationActions required',
    call: binding('b-2', { validationActions: [] }),
    cause: required('spec.validationActions', 'at least one validation action is required'),
  },
  {
    rule: 'validationActions not Deny and Warn',
    call: binding('b-3', { validationActions: ['Deny', 'Warn'] }),
    cause: invalid(
      'spec.validationActions',
      'Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ),
  },
  {
    rule: 'validationActions supported',
    call: binding('b-4', { validationActions: ['Block'] }),
    cause: unsupported('spec.validationActions[0]', 'Block', ['Audit', 'Deny', 'Warn']),
  },
  {
    rule: 'paramRef name or selector',
    call: binding('b-5', { paramRef: { parameterNotFoundAction: 'Deny' } }),
    cause: required('spec.paramRef', 'one of name or selector must be specified'),
  },
  {
    rule: 'paramRef name and selector exclusive',
    call: binding('b-6', { paramRef: { name: 'a', selector: {} } }),
    cause: forbidden('spec.paramRef.name', 'name and selector are mutually exclusive'),
  },
  {
    rule: 'parameterNotFoundAction supported',
    call: binding('b-7', { paramRef: { name: 'a', parameterNotFoundAction: 'Ignore' } }),
    cause: unsupported('spec.paramRef.parameterNotFoundAction', 'Ignore', ['Deny', 'Allow']),
  },
  {
    rule: "match resources checked (under upstream's path spec.matchResouces)",
    call: binding('b-8', { matchResources: { matchPolicy: 'Loose' } }),
    cause: unsupported('spec.matchResouces.matchPolicy', 'Loose', ['Equivalent', 'Exact']),
  },
];

validationSuite('ValidatingAdmissionPolicy validation', () => srv, policyCases, [
  policy('ok-1.example.com'),
  policy('ok-2.example.com', { validations: [], auditAnnotations: [{ key: 'k', valueExpression: "'v'" }] }),
]);
validationSuite('ValidatingAdmissionPolicyBinding validation', () => srv, bindingCases, [
  binding('ok-binding'),
  binding('ok-binding-2', { paramRef: { name: 'p', namespace: 'ns' } }),
]);

describe('whole 422 messages', () => {
  it('reports several policy problems in upstream order', async () => {
    const res = await srv.api('POST', VAP, {
      metadata: { name: 'many.example.com' },
      spec: { failurePolicy: 'Maybe', validations: [{ expression: 'true', messageExpression: ' ' }] },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.message).toBe(
      'ValidatingAdmissionPolicy.admissionregistration.k8s.io "many.example.com" is invalid: [spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore", spec.matchConstraints: Required value, spec.validations[0].messageExpression: Invalid value: " ": must be non-empty if specified]',
    );
  });
});

describe('expression compile errors', () => {
  const compileCases: ValidationCase[] = [
    {
      rule: 'a validation must evaluate to bool',
      call: policy('c-1', { validations: [{ expression: "'hello'" }] }),
      cause: invalidValue(`${P}.validations[0].expression`, `"'hello'"`, 'must evaluate to bool but got string'),
    },
    {
      rule: 'a messageExpression must evaluate to string',
      call: policy('c-2', { validations: [{ expression: 'true', messageExpression: '1' }] }),
      cause: invalidValue(`${P}.validations[0].messageExpression`, '"1"', 'must evaluate to string but got int'),
    },
    {
      rule: 'an audit annotation value is a string or null',
      call: policy('c-3', { validations: [], auditAnnotations: [{ key: 'k', valueExpression: '1' }] }),
      cause: invalidValue(
        `${P}.auditAnnotations[0].valueExpression`,
        '"1"',
        'must evaluate to one of [string null_type] but got int',
      ),
    },
    {
      rule: 'params is declared only with a paramKind',
      call: policy('c-4', { validations: [{ expression: 'params.x' }] }),
      cause: invalidValue(
        `${P}.validations[0].expression`,
        '"params.x"',
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x\n | ^",
      ),
    },
    {
      rule: 'a match condition is compiled trimmed and must be bool',
      call: policy('c-5', { matchConditions: [{ name: 'm', expression: "  'x'  " }] }),
      cause: invalidValue(`${P}.matchConditions[0].expression`, `"'x'"`, 'must evaluate to bool but got string'),
    },
    {
      rule: 'variables are typed for the expressions after them',
      call: policy('c-6', {
        variables: [{ name: 'a', expression: "'s'" }],
        validations: [{ expression: 'variables.a' }],
      }),
      cause: invalidValue(`${P}.validations[0].expression`, '"variables.a"', 'must evaluate to bool but got string'),
    },
    {
      rule: 'a variable expression must compile',
      call: policy('c-7', { variables: [{ name: 'a', expression: 'size(unknown)' }] }),
      cause: invalidValue(
        `${P}.variables[0].expression`,
        '"size(unknown)"',
        "compilation failed: ERROR: <input>:1:6: undeclared reference to 'unknown' (in container '')\n | size(unknown)\n | .....^",
      ),
    },
    {
      rule: 'a messageExpression has no authorizer',
      call: policy('c-8', {
        validations: [{ expression: 'true', messageExpression: "authorizer.path('/x').check('get').reason()" }],
      }),
      cause: invalidValue(
        `${P}.validations[0].messageExpression`,
        `"authorizer.path('/x').check('get').reason()"`,
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')\n | authorizer.path('/x').check('get').reason()\n | ^",
      ),
    },
  ];
  validationSuite('compile', () => srv, compileCases, [
    policy('c-ok-1.example.com', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [{ name: 'n', expression: 'object.metadata.name' }],
      validations: [
        { expression: "variables.n != 'x' && params.data.x == 'y'", messageExpression: "'bad: ' + variables.n" },
      ],
      matchConditions: [{ name: 'm', expression: "authorizer.path('/x').check('get').allowed() || params != null" }],
    }),
  ]);
});

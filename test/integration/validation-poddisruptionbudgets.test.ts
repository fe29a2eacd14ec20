/** One case per rule of docs/validation/poddisruptionbudgets.md (PodDisruptionBudget, policy/v1 and v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  invalidValue,
  merge,
  required,
  unsupported,
  validationSuite,
  type Call,
} from '../helpers/validation-cases.js';

const srv = useTestServer();
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const V1BETA1 = '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets';
const selector = { matchLabels: { app: 'web' } };
const pdb = (name: string, spec: object, at = PDBS): Call => [
  'POST',
  at,
  { metadata: { name }, spec: { selector, ...spec } },
];
/** A budget `name` created first, then its status patched with `status` through `at`. */
const status = (name: string, value: object, at = PDBS): { setup: Call[]; call: Call } => ({
  setup: [pdb(name, { minAvailable: 1 })],
  call: ['PATCH', `${at}/${name}/status`, { status: value }, merge],
});
const condition = (c: object) => ({
  conditions: [
    {
      type: 'DisruptionAllowed',
      status: 'True',
      reason: 'SufficientPods',
      lastTransitionTime: '2024-01-01T00:00:00Z',
      ...c,
    },
  ],
});
const intOrString = (s: string) => `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(s)}}`;
const PERCENT =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const REASON =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

validationSuite(
  'PodDisruptionBudget validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 not both minAvailable and maxUnavailable',
      call: pdb('vpdb-1', { minAvailable: 1, maxUnavailable: 1 }),
      cause: invalidValue(
        'spec',
        '{"minAvailable":1,"selector":{"matchLabels":{"app":"web"}},"maxUnavailable":1}',
        'minAvailable and maxUnavailable cannot be both set',
      ),
    },
    {
      rule: '2 minAvailable not negative',
      call: pdb('vpdb-2', { minAvailable: -1 }),
      cause: invalidValue('spec.minAvailable', '-1', 'must be greater than or equal to 0'),
    },
    {
      rule: '3 minAvailable a percent string',
      call: pdb('vpdb-3', { minAvailable: 'half' }),
      cause: invalidValue('spec.minAvailable', intOrString('half'), PERCENT),
    },
    {
      rule: '4 minAvailable at most 100%',
      call: pdb('vpdb-4', { minAvailable: '101%' }),
      cause: invalidValue('spec.minAvailable', intOrString('101%'), 'must not be greater than 100%'),
    },
    {
      rule: '5 maxUnavailable: the same rules',
      call: pdb('vpdb-5', { maxUnavailable: -2 }),
      cause: invalidValue('spec.maxUnavailable', '-2', 'must be greater than or equal to 0'),
    },
    {
      rule: '6 selector a valid label selector',
      call: pdb('vpdb-6', { selector: { matchExpressions: [{ key: 'app', operator: 'NotIn' }] } }),
      cause: required(
        'spec.selector.matchExpressions[0].values',
        "must be specified when `operator` is 'In' or 'NotIn'",
      ),
    },
    {
      rule: '7 unhealthyPodEvictionPolicy IfHealthyBudget or AlwaysAllow',
      call: pdb('vpdb-7', { unhealthyPodEvictionPolicy: 'Never' }),
      cause: unsupported('spec.unhealthyPodEvictionPolicy', 'Never', ['AlwaysAllow', 'IfHealthyBudget']),
    },
    {
      rule: '8 the same rules on update',
      setup: [pdb('vpdb-8', { minAvailable: 1 })],
      call: ['PATCH', `${PDBS}/vpdb-8`, { spec: { minAvailable: '200%' } }, merge],
      cause: invalidValue('spec.minAvailable', intOrString('200%'), 'must not be greater than 100%'),
    },
    {
      rule: '9 status counts not negative (policy/v1)',
      ...status('vpdb-9', { disruptionsAllowed: -1 }),
      cause: invalidValue('status.disruptionsAllowed', '-1', 'must be greater than or equal to 0'),
    },
    {
      rule: '10 condition type a qualified name',
      ...status('vpdb-10', condition({ type: 'Bad Type' })),
      cause: invalidValue('status.conditions[0].type', '"Bad Type"', NAME_PART),
    },
    {
      rule: '11 condition types unique',
      ...status('vpdb-11', {
        conditions: [...condition({}).conditions, ...condition({ status: 'False' }).conditions],
      }),
      cause: duplicate('status.conditions[1].type', 'Duplicate value: "DisruptionAllowed"'),
    },
    {
      rule: '12 condition status True, False or Unknown',
      ...status('vpdb-12', condition({ status: 'Maybe' })),
      cause: unsupported('status.conditions[0].status', 'Maybe', ['False', 'True', 'Unknown']),
    },
    {
      rule: '13 condition observedGeneration not negative',
      ...status('vpdb-13', condition({ observedGeneration: -1 })),
      cause: invalidValue('status.conditions[0].observedGeneration', '-1', 'must be greater than or equal to zero'),
    },
    {
      rule: '14 condition lastTransitionTime set',
      ...status('vpdb-14', condition({ lastTransitionTime: null })),
      cause: required('status.conditions[0].lastTransitionTime', 'must be set'),
    },
    {
      rule: '15 condition reason set',
      ...status('vpdb-15', condition({ reason: '' })),
      cause: required('status.conditions[0].reason', 'must be set'),
    },
    {
      rule: '16 condition reason CamelCase',
      ...status('vpdb-16', condition({ reason: 'not ok' })),
      cause: invalidValue('status.conditions[0].reason', '"not ok"', REASON),
    },
    {
      rule: '17 condition reason at most 1024 bytes',
      ...status('vpdb-17', condition({ reason: `R${'a'.repeat(1024)}` })),
      cause: {
        field: 'status.conditions[0].reason',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 1024 bytes',
      },
    },
    {
      rule: '18 condition message at most 32768 bytes',
      ...status('vpdb-18', condition({ message: 'm'.repeat(32 * 1024 + 1) })),
      cause: {
        field: 'status.conditions[0].message',
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 32768 bytes',
      },
    },
    {
      rule: '19 policy/v1beta1: the spec rules too',
      call: pdb('vpdb-19', { minAvailable: 'half' }, V1BETA1),
      cause: invalidValue('spec.minAvailable', intOrString('half'), PERCENT),
    },
  ],
  [
    pdb('vpdb-ok-1', { minAvailable: '100%' }),
    pdb('vpdb-ok-2', { maxUnavailable: 0, unhealthyPodEvictionPolicy: 'AlwaysAllow' }),
    pdb('vpdb-ok-3', { minAvailable: 2 }, V1BETA1),
    // policy/v1beta1 keeps 1.10's status rules: negative counts are not checked there.
    pdb('vpdb-ok-4', { minAvailable: 1 }, V1BETA1),
    ['PATCH', `${V1BETA1}/vpdb-ok-4/status`, { status: { disruptionsAllowed: -1 } }, merge],
  ],
);

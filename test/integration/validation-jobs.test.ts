/** One case per Job rule of docs/validation/jobs.md (rules J1-J100), and its generation semantics. */
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import {
  duplicate,
  immutable,
  invalid,
  invalidValue,
  required,
  tooMany,
  unsupported,
  validationSuite,
  type Call,
  type ValidationCase,
} from '../helpers/validation-cases.js';
import { MERGE, NEG, qualified, selectorOf } from '../helpers/apps-workloads.js';

const srv = useTestServer();

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const container = { name: 'c', image: 'busybox' };
const podSpec = (pod: object = {}) => ({ containers: [container], restartPolicy: 'Never', ...pod });
const job = (name: string, extra: object = {}, pod: object = {}, labels?: object): Call => [
  'POST',
  JOBS,
  { metadata: { name }, spec: { template: { metadata: { labels }, spec: podSpec(pod) }, ...extra } },
];
const indexed = (extra: object = {}) => ({ completionMode: 'Indexed', completions: 3, parallelism: 3, ...extra });
const patch = (name: string, spec: object): Call => ['PATCH', `${JOBS}/${name}`, { spec }, MERGE];
const status = (name: string, s: object): Call => ['PATCH', `${JOBS}/${name}/status`, { status: s }, MERGE];
const cond = (...types: string[]) => types.map((type) => ({ type, status: 'True' }));
const START = '2024-01-01T00:00:00Z';
const END = '2024-01-01T01:00:00Z';
const GO_END = '2024-01-01 01:00:00 +0000 UTC';
/** A pod failure policy of these rules (restartPolicy Never is the job's). */
const pfp = (...rules: object[]) => ({ podFailurePolicy: { rules } });
const exitRule = (onExitCodes: object, action = 'FailJob') => ({ action, onExitCodes });
const PFR = 'spec.podFailurePolicy.rules[0]';
const SR = 'spec.successPolicy.rules';
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const MANUAL = { manualSelector: true, selector: { matchLabels: { app: 'm' } } };
const domainPath = 'must be a domain-prefixed path (such as "acme.io/foo")';
const finishedOk = { startTime: START, completionTime: END, conditions: cond('SuccessCriteriaMet', 'Complete') };

const specCases: ValidationCase[] = [
  ...(
    [
      ['J1', 'parallelism'],
      ['J2', 'completions'],
      ['J3', 'activeDeadlineSeconds'],
      ['J4', 'backoffLimit'],
      ['J5', 'ttlSecondsAfterFinished'],
    ] as const
  ).map(([id, f]): ValidationCase => ({
    rule: `${id} ${f} non-negative`,
    call: job(`vj-${id.slice(1)}`, { [f]: -1 }),
    cause: invalidValue(`spec.${f}`, '-1', NEG),
  })),
  {
    rule: 'J6 backoffLimitPerIndex non-negative',
    call: job('vj-6', indexed({ backoffLimitPerIndex: -1 })),
    cause: invalidValue('spec.backoffLimitPerIndex', '-1', NEG),
  },
  {
    rule: 'J7 maxFailedIndexes non-negative',
    call: job('vj-7', indexed({ backoffLimitPerIndex: 1, maxFailedIndexes: -1 })),
    cause: invalidValue('spec.maxFailedIndexes', '-1', NEG),
  },
  {
    rule: 'J8 maxFailedIndexes needs backoffLimitPerIndex',
    call: job('vj-8', indexed({ maxFailedIndexes: 1 })),
    cause: required('spec.backoffLimitPerIndex', 'when maxFailedIndexes is specified'),
  },
  {
    rule: 'J9 managedBy a domain-prefixed path',
    call: job('vj-9', { managedBy: 'kueue' }),
    cause: invalidValue('spec.managedBy', '"kueue"', domainPath),
  },
  {
    rule: 'J10 managedBy at most 63 characters',
    call: job('vj-10', { managedBy: `example.com/${'x'.repeat(60)}` }),
    cause: { field: 'spec.managedBy', reason: 'FieldValueTooLong', message: 'Too long: may not be more than 63 bytes' },
  },
  {
    rule: 'J11 completionMode NonIndexed or Indexed',
    call: job('vj-11', { completionMode: 'Sparse' }),
    cause: unsupported('spec.completionMode', 'Sparse', ['NonIndexed', 'Indexed']),
  },
  {
    rule: 'J12 Indexed needs completions',
    call: job('vj-12', { completionMode: 'Indexed', parallelism: 2 }),
    cause: required('spec.completions', 'when completion mode is Indexed'),
  },
  {
    rule: 'J13 Indexed parallelism at most 100000',
    call: job('vj-13', indexed({ parallelism: 100001 })),
    cause: invalidValue(
      'spec.parallelism',
      '100001',
      'must be less than or equal to 100000 when completion mode is Indexed',
    ),
  },
  {
    rule: 'J14 maxFailedIndexes at most completions',
    call: job('vj-14', indexed({ backoffLimitPerIndex: 1, maxFailedIndexes: 4 })),
    cause: invalidValue('spec.maxFailedIndexes', '4', 'must be less than or equal to completions'),
  },
  {
    rule: 'J15 maxFailedIndexes at most 100000',
    call: job('vj-15', indexed({ completions: 200000, backoffLimitPerIndex: 1, maxFailedIndexes: 100001 })),
    cause: invalidValue('spec.maxFailedIndexes', '100001', 'must be less than or equal to 100000'),
  },
  {
    rule: 'J16 maxFailedIndexes required above 100000 completions with backoffLimitPerIndex',
    call: job('vj-16', indexed({ completions: 100001, backoffLimitPerIndex: 1 })),
    cause: required('spec.maxFailedIndexes', 'must be specified when completions is above 100000'),
  },
  {
    rule: 'J17 parallelism at most 10000 above 100000 completions with backoffLimitPerIndex',
    call: job(
      'vj-17',
      indexed({ completions: 100001, parallelism: 10001, backoffLimitPerIndex: 1, maxFailedIndexes: 1 }),
    ),
    cause: invalidValue(
      'spec.parallelism',
      '10001',
      'must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
    ),
  },
  {
    rule: 'J18 maxFailedIndexes at most 10000 above 100000 completions with backoffLimitPerIndex',
    call: job('vj-18', indexed({ completions: 100001, backoffLimitPerIndex: 1, maxFailedIndexes: 10001 })),
    cause: invalidValue(
      'spec.maxFailedIndexes',
      '10001',
      'must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
    ),
  },
  {
    rule: 'J19 backoffLimitPerIndex requires Indexed',
    call: job('vj-19', { backoffLimitPerIndex: 1 }),
    cause: invalidValue('spec.backoffLimitPerIndex', '1', 'requires indexed completion mode'),
  },
  {
    rule: 'J20 maxFailedIndexes requires Indexed',
    call: job('vj-20', { backoffLimitPerIndex: 1, maxFailedIndexes: 1 }),
    cause: invalidValue('spec.maxFailedIndexes', '1', 'requires indexed completion mode'),
  },
  {
    rule: 'J21 podFailurePolicy at most 20 rules',
    call: job('vj-21', pfp(...Array.from({ length: 21 }, () => exitRule({ operator: 'In', values: [1] })))),
    cause: tooMany('spec.podFailurePolicy.rules', 21, 20),
  },
  {
    rule: 'J22 rule action required',
    call: job('vj-22', pfp({ action: '', onExitCodes: { operator: 'In', values: [1] } })),
    cause: required(`${PFR}.action`, 'valid values: ["Count" "FailIndex" "FailJob" "Ignore"]'),
  },
  {
    rule: 'J23 FailIndex needs backoffLimitPerIndex',
    call: job('vj-23', pfp(exitRule({ operator: 'In', values: [1] }, 'FailIndex'))),
    cause: invalidValue(`${PFR}.action`, '"FailIndex"', 'requires the backoffLimitPerIndex to be set'),
  },
  {
    rule: 'J24 rule action known',
    call: job('vj-24', pfp(exitRule({ operator: 'In', values: [1] }, 'Retry'))),
    cause: unsupported(`${PFR}.action`, 'Retry', ACTIONS),
  },
  {
    rule: 'J25 onExitCodes operator required',
    call: job('vj-25', pfp(exitRule({ operator: '', values: [1] }))),
    cause: required(`${PFR}.onExitCodes.operator`, 'valid values: ["In" "NotIn"]'),
  },
  {
    rule: 'J26 onExitCodes operator In or NotIn',
    call: job('vj-26', pfp(exitRule({ operator: 'Gt', values: [1] }))),
    cause: unsupported(`${PFR}.onExitCodes.operator`, 'Gt', ['In', 'NotIn']),
  },
  {
    rule: 'J27 onExitCodes containerName a template container',
    call: job('vj-27', pfp(exitRule({ containerName: 'other', operator: 'In', values: [1] }))),
    cause: invalidValue(
      `${PFR}.onExitCodes.containerName`,
      '"other"',
      'must be one of the container or initContainer names in the pod template',
    ),
  },
  {
    rule: 'J28 onExitCodes values not empty',
    call: job('vj-28', pfp(exitRule({ operator: 'In', values: [] }))),
    cause: invalidValue(`${PFR}.onExitCodes.values`, '[]int32{}', 'at least one value is required'),
  },
  {
    rule: 'J29 onExitCodes at most 255 values',
    call: job('vj-29', pfp(exitRule({ operator: 'NotIn', values: Array.from({ length: 256 }, (_, i) => i + 1) }))),
    cause: tooMany(`${PFR}.onExitCodes.values`, 256, 255),
  },
  {
    rule: 'J30 In values not 0',
    call: job('vj-30', pfp(exitRule({ operator: 'In', values: [0, 1] }))),
    cause: invalidValue(`${PFR}.onExitCodes.values[0]`, '0', 'must not be 0 for the In operator'),
  },
  {
    rule: 'J31 onExitCodes values unique',
    call: job('vj-31', pfp(exitRule({ operator: 'In', values: [1, 1] }))),
    cause: duplicate(`${PFR}.onExitCodes.values[1]`, 'Duplicate value: 1'),
  },
  {
    rule: 'J32 onExitCodes values ordered',
    call: job('vj-32', pfp(exitRule({ operator: 'In', values: [3, 2] }))),
    cause: invalidValue(`${PFR}.onExitCodes.values`, '[]int32{3, 2}', 'must be ordered'),
  },
  {
    rule: 'J33 onPodConditions at most 20 patterns',
    call: job(
      'vj-33',
      pfp({ action: 'Ignore', onPodConditions: Array.from({ length: 21 }, (_, i) => ({ type: `C${i}` })) }),
    ),
    cause: tooMany(`${PFR}.onPodConditions`, 21, 20),
  },
  {
    rule: 'J34 onPodConditions type a qualified name',
    call: job('vj-34', pfp({ action: 'Ignore', onPodConditions: [{ type: 'bad type' }] })),
    cause: invalidValue(`${PFR}.onPodConditions[0].type`, '"bad type"', qualified),
  },
  {
    rule: 'J35 onPodConditions status True, False or Unknown',
    call: job('vj-35', pfp({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'Maybe' }] })),
    cause: unsupported(`${PFR}.onPodConditions[0].status`, 'Maybe', ['False', 'True', 'Unknown']),
  },
  {
    rule: 'J36 not both onExitCodes and onPodConditions',
    call: job(
      'vj-36',
      pfp({ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] }, onPodConditions: [{ type: 'X' }] }),
    ),
    cause: invalid(PFR, 'Invalid value: specifying both OnExitCodes and OnPodConditions is not supported'),
  },
  {
    rule: 'J37 one of onExitCodes and onPodConditions',
    call: job('vj-37', pfp({ action: 'Ignore' })),
    cause: invalid(PFR, 'Invalid value: specifying one of OnExitCodes and OnPodConditions is required'),
  },
  {
    rule: 'J38 successPolicy requires Indexed',
    call: job('vj-38', { successPolicy: { rules: [{ succeededCount: 1 }] } }),
    cause: invalidValue('spec.successPolicy', 'batch.SuccessPolicy{...}', 'requires indexed completion mode'),
  },
  {
    rule: 'J39 successPolicy has rules',
    call: job('vj-39', indexed({ successPolicy: { rules: [] } })),
    cause: required(SR, 'at least one rules must be specified when the successPolicy is specified'),
  },
  {
    rule: 'J40 successPolicy at most 20 rules',
    call: job(
      'vj-40',
      indexed({ successPolicy: { rules: Array.from({ length: 21 }, () => ({ succeededCount: 1 })) } }),
    ),
    cause: tooMany(SR, 21, 20),
  },
  {
    rule: 'J41 success rule sets succeededCount or succeededIndexes',
    call: job('vj-41', indexed({ successPolicy: { rules: [{}] } })),
    cause: required(`${SR}[0]`, 'at least one of succeededCount or succeededIndexes must be specified'),
  },
  {
    rule: 'J42 succeededIndexes at most 64 KiB',
    call: job('vj-42', indexed({ successPolicy: { rules: [{ succeededIndexes: '0,'.repeat(32768) + '1' }] } })),
    cause: {
      field: `${SR}[0].succeededIndexes`,
      reason: 'FieldValueTooLong',
      message: 'Too long: may not be more than 65536 bytes',
    },
  },
  {
    rule: 'J43 succeededIndexes a valid index list',
    call: job('vj-43', indexed({ successPolicy: { rules: [{ succeededIndexes: '0-5' }] } })),
    cause: invalidValue(`${SR}[0].succeededIndexes`, '"0-5"', 'error parsing succeededIndexes: too large index: "5"'),
  },
  {
    rule: 'J44 succeededCount non-negative',
    call: job('vj-44', indexed({ successPolicy: { rules: [{ succeededCount: -1 }] } })),
    cause: invalidValue(`${SR}[0].succeededCount`, '-1', NEG),
  },
  {
    rule: 'J45 succeededCount at most completions',
    call: job('vj-45', indexed({ successPolicy: { rules: [{ succeededCount: 4 }] } })),
    cause: invalidValue(
      `${SR}[0].succeededCount`,
      '4',
      'must be less than or equal to 3 (the number of specified completions)',
    ),
  },
  {
    rule: 'J46 succeededCount at most the succeededIndexes',
    call: job('vj-46', indexed({ successPolicy: { rules: [{ succeededIndexes: '0', succeededCount: 2 }] } })),
    cause: invalidValue(
      `${SR}[0].succeededCount`,
      '2',
      'must be less than or equal to 1 (the number of indexes in the specified succeededIndexes field)',
    ),
  },
  {
    rule: 'J47 podReplacementPolicy Failed with a podFailurePolicy',
    call: job('vj-47', {
      ...pfp(exitRule({ operator: 'In', values: [1] })),
      podReplacementPolicy: 'TerminatingOrFailed',
    }),
    cause: unsupported('spec.podReplacementPolicy', 'TerminatingOrFailed', ['Failed']),
  },
  {
    rule: 'J48 podReplacementPolicy Failed or TerminatingOrFailed',
    call: job('vj-48', { podReplacementPolicy: 'Never' }),
    cause: unsupported('spec.podReplacementPolicy', 'Never', ['Failed', 'TerminatingOrFailed']),
  },
  {
    rule: 'J49 template a valid PodTemplateSpec',
    call: ['POST', JOBS, { metadata: { name: 'vj-49' }, spec: { template: { spec: { restartPolicy: 'Never' } } } }],
    cause: required('spec.template.spec.containers'),
  },
  {
    rule: 'J50 restartPolicy set and not Always',
    call: job('vj-50', {}, { restartPolicy: 'Always' }),
    cause: required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'),
  },
  {
    // The schema's enum answers first with the pod spec's values (see the doc's note on J51).
    rule: 'J51 restartPolicy OnFailure or Never',
    call: job('vj-51', {}, { restartPolicy: 'Sometimes' }),
    cause: unsupported('spec.template.spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never']),
  },
  {
    rule: 'J52 restartPolicy Never with a podFailurePolicy',
    call: job('vj-52', pfp(exitRule({ operator: 'In', values: [1] })), { restartPolicy: 'OnFailure' }),
    cause: invalidValue(
      'spec.template.spec.restartPolicy',
      '"OnFailure"',
      'only "Never" is supported when podFailurePolicy is specified',
    ),
  },
  {
    rule: 'J53 selector required (manualSelector)',
    call: job('vj-53', { manualSelector: true }),
    cause: required('spec.selector'),
  },
  {
    rule: 'J54 selector valid (manualSelector)',
    call: job('vj-54', { manualSelector: true, selector: { matchLabels: { 'bad key': 'x' } } }),
    cause: invalidValue('spec.selector.matchLabels', '"bad key"', qualified),
  },
  {
    rule: 'J55 selector selects the template labels (manualSelector)',
    call: job('vj-55', MANUAL, {}, { app: 'other' }),
    cause: invalidValue(
      'spec.template.metadata.labels',
      'map[string]string{"app":"other"}',
      '`selector` does not match template `labels`',
    ),
  },
  {
    rule: 'J58 an Indexed job name makes valid pod hostnames',
    call: job('a'.repeat(60), indexed({ completions: 1000, parallelism: 1 })),
    cause: invalidValue(
      'metadata.name',
      `"${'a'.repeat(60)}"`,
      `will not able to create pod with invalid DNS label: ${'a'.repeat(60)}-999`,
    ),
  },
];

const updateCases: ValidationCase[] = [
  {
    rule: 'J59 completions immutable (NonIndexed)',
    setup: [job('vj-59', { completions: 1 })],
    call: patch('vj-59', { completions: 2 }),
    cause: immutable('spec.completions', '2'),
  },
  {
    rule: 'J60 Indexed completions change only with parallelism',
    setup: [job('vj-60', indexed())],
    call: patch('vj-60', { completions: 4 }),
    cause: invalidValue('spec.completions', '4', 'can only be modified in tandem with spec.parallelism'),
  },
  {
    rule: 'J61 selector immutable',
    setup: [job('vj-61', MANUAL, {}, { app: 'm' })],
    call: patch('vj-61', {
      selector: { matchLabels: { app: 'm', x: 'y' } },
      template: { metadata: { labels: { x: 'y' } } },
    }),
    cause: immutable('spec.selector', selectorOf('map[string]string{"app":"m", "x":"y"}')),
  },
  {
    rule: 'J62 template immutable',
    setup: [job('vj-62')],
    call: patch('vj-62', { template: { spec: { containers: [{ ...container, image: 'alpine' }] } } }),
    cause: immutable('spec.template', 'core.PodTemplateSpec{...}'),
  },
  {
    rule: 'J63 completionMode immutable',
    setup: [job('vj-63', { completions: 2, parallelism: 2 })],
    call: patch('vj-63', { completionMode: 'Indexed' }),
    cause: immutable('spec.completionMode', '"Indexed"'),
  },
  {
    rule: 'J64 podFailurePolicy immutable',
    setup: [job('vj-64')],
    call: patch('vj-64', pfp(exitRule({ operator: 'In', values: [1] }))),
    cause: immutable('spec.podFailurePolicy', 'batch.PodFailurePolicy{...}'),
  },
  {
    rule: 'J65 backoffLimitPerIndex immutable',
    setup: [job('vj-65', indexed({ backoffLimitPerIndex: 1 }))],
    call: patch('vj-65', { backoffLimitPerIndex: 2 }),
    cause: immutable('spec.backoffLimitPerIndex', '2'),
  },
  {
    rule: 'J66 managedBy immutable',
    setup: [job('vj-66', { managedBy: 'example.com/a' })],
    call: patch('vj-66', { managedBy: 'example.com/b' }),
    cause: immutable('spec.managedBy', '"example.com/b"'),
  },
  {
    rule: 'J67 successPolicy immutable',
    setup: [job('vj-67', indexed())],
    call: patch('vj-67', { successPolicy: { rules: [{ succeededCount: 1 }] } }),
    cause: immutable('spec.successPolicy', 'batch.SuccessPolicy{...}'),
  },
];

/** A status case: the job `vj-<n>` (with `extra` spec), then the status writes `before`, then `s`. */
const st = (
  id: string,
  rule: string,
  s: object,
  cause: ValidationCase['cause'],
  extra: object = {},
  before: object[] = [],
) => {
  const name = `vj-${id.slice(1)}`;
  return {
    rule: `${id} ${rule}`,
    setup: [job(name, extra), ...before.map((b) => status(name, b))],
    call: status(name, s),
    cause,
  };
};

const statusCases: ValidationCase[] = [
  ...(
    [
      ['J68', 'active'],
      ['J69', 'succeeded'],
      ['J70', 'failed'],
      ['J71', 'ready'],
      ['J72', 'terminating'],
    ] as const
  ).map(([id, f]) => st(id, `status.${f} non-negative`, { [f]: -1 }, invalidValue(`status.${f}`, '-1', NEG))),
  st(
    'J73',
    'uncounted pod UIDs not empty',
    { uncountedTerminatedPods: { succeeded: [''] } },
    invalidValue('status.uncountedTerminatedPods.succeeded[0]', '""', 'must not be empty'),
  ),
  st(
    'J74',
    'uncounted pod UIDs unique',
    { uncountedTerminatedPods: { succeeded: ['a'], failed: ['a'] } },
    duplicate('status.uncountedTerminatedPods.failed[0]', 'Duplicate value: "a"'),
  ),
  st(
    'J75',
    'not Complete and Failed',
    { ...finishedOk, conditions: cond('SuccessCriteriaMet', 'Complete', 'Failed') },
    invalid('status.conditions', 'Invalid value: cannot set Complete=True and Failed=true conditions'),
  ),
  st(
    'J76',
    'not Complete and FailureTarget',
    { ...finishedOk, conditions: cond('SuccessCriteriaMet', 'Complete', 'FailureTarget') },
    invalid('status.conditions', 'Invalid value: cannot set Complete=True and FailureTarget=true conditions'),
  ),
  st(
    'J77',
    'completionTime only with Complete',
    { startTime: START, completionTime: END },
    invalidValue('status.completionTime', GO_END, 'cannot set completionTime when there is no Complete=True condition'),
  ),
  st(
    'J78',
    'Complete needs completionTime',
    { ...finishedOk, completionTime: null },
    required('status.completionTime', 'completionTime is required for Complete jobs'),
  ),
  st(
    'J79',
    'completionTime not before startTime',
    { ...finishedOk, startTime: '2024-01-02T00:00:00Z' },
    invalidValue('status.completionTime', GO_END, 'completionTime cannot be set before startTime'),
  ),
  st(
    'J80',
    'Failed needs FailureTarget',
    { startTime: START, conditions: cond('Failed') },
    invalid(
      'status.conditions',
      'Invalid value: cannot set Failed=True condition without the FailureTarget=true condition',
    ),
  ),
  st(
    'J81',
    'Complete needs SuccessCriteriaMet',
    { ...finishedOk, conditions: cond('Complete') },
    invalid(
      'status.conditions',
      'Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
    ),
  ),
  st(
    'J82',
    'no active pods once finished',
    { ...finishedOk, active: 1 },
    invalidValue('status.active', '1', 'active>0 is invalid for finished job'),
  ),
  st(
    'J83',
    'a finished job has a startTime',
    { ...finishedOk, startTime: null, completionTime: null, conditions: cond('FailureTarget', 'Failed') },
    required('status.startTime', 'startTime is required for finished job'),
  ),
  st(
    'J84',
    'no uncounted pods once finished',
    { ...finishedOk, uncountedTerminatedPods: { failed: ['u1'] } },
    invalidValue(
      'status.uncountedTerminatedPods',
      'batch.UncountedTerminatedPods{Succeeded:[]types.UID(nil), Failed:[]types.UID{"u1"}}',
      'uncountedTerminatedPods needs to be empty for finished job',
    ),
  ),
  st(
    'J85',
    'completedIndexes a valid index list',
    { completedIndexes: '1,0' },
    invalidValue(
      'status.completedIndexes',
      '"1,0"',
      'error parsing completedIndexes: non-increasing order, previous: 1, current: 0',
    ),
    indexed(),
  ),
  st(
    'J86',
    'failedIndexes a valid index list',
    { failedIndexes: '7' },
    invalidValue('status.failedIndexes', '"7"', 'error parsing failedIndexes: too large index: "7"'),
    indexed({ backoffLimitPerIndex: 1 }),
  ),
  st(
    'J87',
    'completedIndexes only for Indexed jobs',
    { completedIndexes: '0' },
    invalidValue(
      'status.completedIndexes',
      '"0"',
      'cannot set non-empty completedIndexes when non-indexed completion mode',
    ),
  ),
  st(
    'J88',
    'failedIndexes only with backoffLimitPerIndex',
    { failedIndexes: '0' },
    invalidValue('status.failedIndexes', '"0"', 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'),
    indexed(),
  ),
  st(
    'J89',
    'completedIndexes and failedIndexes disjoint',
    { completedIndexes: '0-1', failedIndexes: '1' },
    invalidValue('status.failedIndexes', '"1"', 'failedIndexes and completedIndexes overlap at index: 1'),
    indexed({ backoffLimitPerIndex: 1 }),
  ),
  st(
    'J90',
    'no terminating pods once finished',
    { ...finishedOk, terminating: 1 },
    invalidValue('status.terminating', '1', 'terminating>0 is invalid for finished job'),
  ),
  st(
    'J91',
    'ready at most active',
    { active: 1, ready: 2 },
    invalidValue('status.ready', '2', 'cannot set more ready pods than active'),
  ),
  st(
    'J92',
    'not SuccessCriteriaMet and Failed',
    { startTime: START, conditions: cond('SuccessCriteriaMet', 'FailureTarget', 'Failed') },
    invalid('status.conditions', 'Invalid value: cannot set SuccessCriteriaMet=True and Failed=true conditions'),
  ),
  st(
    'J93',
    'not SuccessCriteriaMet and FailureTarget',
    { conditions: cond('SuccessCriteriaMet', 'FailureTarget') },
    invalid('status.conditions', 'Invalid value: cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'),
  ),
  st(
    'J94',
    'a successPolicy job completes through SuccessCriteriaMet',
    { ...finishedOk, conditions: cond('Complete') },
    invalid(
      'status.conditions',
      'Invalid value: cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True',
    ),
    indexed({ successPolicy: { rules: [{ succeededCount: 1 }] } }),
  ),
  st(
    'J95',
    'terminal conditions stay',
    { conditions: [] },
    invalid('status.conditions', 'Invalid value: cannot disable the terminal FailureTarget=True condition'),
    {},
    [{ conditions: cond('FailureTarget') }],
  ),
  st(
    'J96',
    'failed never decreases',
    { failed: 1 },
    invalidValue('status.failed', '1', 'cannot decrease the failed counter'),
    {},
    [{ failed: 2 }],
  ),
  st(
    'J97',
    'succeeded never decreases (unless elastic Indexed)',
    { succeeded: 1 },
    invalidValue('status.succeeded', '1', 'cannot decrease the succeeded counter'),
    {},
    [{ succeeded: 2 }],
  ),
  st(
    'J98',
    'completionTime set once',
    { completionTime: '2024-01-01T02:00:00Z' },
    invalidValue('status.completionTime', '2024-01-01 02:00:00 +0000 UTC', 'completionTime cannot be mutated'),
    {},
    [finishedOk],
  ),
  st(
    'J99',
    'startTime stays on an unsuspended job',
    { startTime: null },
    required('status.startTime', 'startTime cannot be removed for unsuspended job'),
    {},
    [{ startTime: START }],
  ),
  st(
    'J100',
    'SuccessCriteriaMet stays',
    { conditions: [] },
    invalid('status.conditions', 'Invalid value: cannot disable the SuccessCriteriaMet=True condition'),
    {},
    [{ conditions: cond('SuccessCriteriaMet') }],
  ),
];

validationSuite('Job validation (batch/v1): spec', () => srv, specCases, [
  job(
    'vj-ok',
    indexed({
      backoffLimitPerIndex: 1,
      maxFailedIndexes: 1,
      successPolicy: { rules: [{ succeededIndexes: '0-1', succeededCount: 1 }] },
    }),
  ),
  job('vj-ok2', {
    ...pfp(exitRule({ operator: 'NotIn', values: [0, 2] }), {
      action: 'Ignore',
      onPodConditions: [{ type: 'DisruptionTarget' }],
    }),
    managedBy: 'example.com/ctl',
  }),
]);
validationSuite('Job validation (batch/v1): update', () => srv, updateCases, [
  job('vj-up', indexed()),
  patch('vj-up', { completions: 5, parallelism: 5, activeDeadlineSeconds: 60 }),
  // A suspended job that never started may change its scheduling directives.
  job('vj-sus', { suspend: true }),
  patch('vj-sus', { template: { spec: { nodeSelector: { zone: 'a' } }, metadata: { labels: { extra: 'x' } } } }),
]);
validationSuite('Job validation (batch/v1): /status', () => srv, statusCases, [
  job('vj-st'),
  status('vj-st', { active: 1, ready: 1, startTime: START }),
  status('vj-st', { active: 0, ready: 0, succeeded: 1, ...finishedOk }),
]);

describe('Job rules that name the generated uid', () => {
  const causesOf = (body: any): { field: string; reason: string; message: string }[] => body?.details?.causes ?? [];
  it('J56 the template keeps the generated labels', async () => {
    const res = await srv.api(...job('vj-56', {}, {}, { 'job-name': 'other' }));
    expect(res.status, res.text).toBe(422);
    const cause = causesOf(res.body).find((c) => c.field === 'spec.template.metadata.labels[job-name]');
    expect(cause?.reason).toBe('FieldValueInvalid');
    expect(cause?.message).toMatch(/^Invalid value: map\[string\]string\{.*"job-name":"other".*\}: must be 'vj-56'$/);
  });
  it('J57 the selector is the generated one unless manualSelector', async () => {
    const res = await srv.api(...job('vj-57', { selector: { matchLabels: { app: 'x' } } }, {}, { app: 'x' }));
    expect(res.status, res.text).toBe(422);
    const cause = causesOf(res.body).find((c) => c.field === 'spec.selector');
    expect(cause?.reason).toBe('FieldValueInvalid');
    expect(cause?.message).toMatch(
      /^Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"app":"x", "batch\.kubernetes\.io\/controller-uid":"[0-9a-f-]+"\}, MatchExpressions:\[\]v1\.LabelSelectorRequirement\(nil\)\}: `selector` not auto-generated$/,
    );
  });
});

describe('Job generation', () => {
  it('counts spec changes only; /status leaves generation alone', async () => {
    const made = await srv.api(...job('vj-gen'));
    expect(made.status, made.text).toBe(201);
    expect(made.body.metadata.generation).toBe(1);
    const s = await srv.api(...status('vj-gen', { active: 1, startTime: START }));
    expect(s.status, s.text).toBe(200);
    expect(s.body.metadata.generation).toBe(1);
    const changed = await srv.api(...patch('vj-gen', { activeDeadlineSeconds: 100 }));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.metadata.generation).toBe(2);
  });
});

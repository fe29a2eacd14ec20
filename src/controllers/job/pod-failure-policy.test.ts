/**
 * Upstream 1.33 pkg/controller/job/pod_failure_policy_test.go TestMatchPodFailurePolicy,
 * ported (the two rows with JobBackoffLimitPerIndex disabled are left out: it is GA in 1.33).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { matchPodFailurePolicy, type PodFailurePolicy, type PolicyMatch } from './pod-failure-policy.js';

const exited = (code: number, name = '') => ({ name, state: { terminated: { exitCode: code } } });
const failedPod = (status: Record<string, unknown>): Pod =>
  ({ metadata: { namespace: 'default', name: 'mypod' }, status: { phase: 'Failed', ...status } }) as Pod;
const withExits = (...statuses: object[]) => failedPod({ containerStatuses: statuses });
const withCondition = (type: string, status: string) => failedPod({ conditions: [{ type, status }] });
const onExit = (action: string, operator: string, values: number[]) => ({ action, onExitCodes: { operator, values } });
const onCond = (action: string, type: string, status: string) => ({ action, onPodConditions: [{ type, status }] });
const policy = (...rules: object[]) => ({ rules }) as PodFailurePolicy;
const DT = 'DisruptionTarget';
const msg = (code: number, index: number) =>
  `Container main-container for pod default/mypod failed with exit code ${code} matching FailJob rule at index ${index}`;

const cases: [string, PodFailurePolicy | undefined, Pod, PolicyMatch][] = [
  [
    'unknown action for rule matching by exit codes - skip rule with unknown action',
    policy(onExit('UnknownAction', 'In', [1, 2]), onExit('FailJob', 'In', [2, 3])),
    withExits(exited(2, 'main-container')),
    { failJobMessage: msg(2, 1), countFailed: true, action: 'FailJob' },
  ],
  [
    'unknown action for rule matching by pod conditions - skip rule with unknown action',
    policy(onCond('UnkonwnAction', DT, 'True'), onCond('Ignore', DT, 'True')),
    withCondition(DT, 'True'),
    { countFailed: false, action: 'Ignore' },
  ],
  [
    'unknown operator - rule with unknown action is skipped for onExitCodes',
    policy(onExit('Ignore', 'UnknownOperator', [1, 2]), onExit('FailJob', 'In', [2, 3])),
    withExits(exited(2, 'main-container')),
    { failJobMessage: msg(2, 1), countFailed: true, action: 'FailJob' },
  ],
  ['no policy rules', undefined, withExits(exited(2)), { countFailed: true }],
  [
    'ignore rule matched for exit codes',
    policy(onExit('Ignore', 'In', [1, 2, 3])),
    withExits(exited(2)),
    { countFailed: false, action: 'Ignore' },
  ],
  [
    'FailJob rule matched for exit codes',
    policy(onExit('FailJob', 'In', [1, 2, 3])),
    withExits(exited(2, 'main-container')),
    { failJobMessage: msg(2, 0), countFailed: true, action: 'FailJob' },
  ],
  [
    'successful containers are skipped by the rules',
    policy(onExit('FailJob', 'NotIn', [111])),
    failedPod({
      initContainerStatuses: [exited(0, 'init-container')],
      containerStatuses: [exited(111, 'main-container'), exited(0, 'suppport-container')],
    }),
    { countFailed: true },
  ],
  [
    'FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled',
    policy(onExit('FailIndex', 'In', [1, 2, 3])),
    withExits(exited(2)),
    { countFailed: true, action: 'FailIndex' },
  ],
  [
    'pod failure policy with NotIn operator and value 0',
    policy(onExit('FailJob', 'NotIn', [0])),
    withExits(exited(1, 'main-container'), exited(0, 'suppport-container')),
    { failJobMessage: msg(1, 0), countFailed: true, action: 'FailJob' },
  ],
  [
    'second jobfail rule matched for exit codes',
    policy(onExit('Count', 'In', [1, 2, 3]), onExit('FailJob', 'In', [4, 5, 6])),
    withExits(exited(6, 'main-container')),
    { failJobMessage: msg(6, 1), countFailed: true, action: 'FailJob' },
  ],
  [
    'count rule matched for exit codes',
    policy(onExit('Count', 'In', [1, 2, 3])),
    withExits({ name: 'foo' }, exited(2, 'bar')),
    { countFailed: true, action: 'Count' },
  ],
  [
    'FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled',
    policy(onCond('FailIndex', DT, 'True')),
    withCondition(DT, 'True'),
    { countFailed: true, action: 'FailIndex' },
  ],
  [
    'ignore rule matched for pod conditions',
    policy(onCond('Ignore', DT, 'True')),
    withCondition(DT, 'True'),
    { countFailed: false, action: 'Ignore' },
  ],
  [
    'ignore rule matches by the status=False',
    policy(onCond('Ignore', DT, 'False')),
    withCondition(DT, 'False'),
    { countFailed: false, action: 'Ignore' },
  ],
  [
    'ignore rule matches by the status=Unknown',
    policy(onCond('Ignore', DT, 'Unknown')),
    withCondition(DT, 'Unknown'),
    { countFailed: false, action: 'Ignore' },
  ],
  [
    'ignore rule does not match when status for pattern is False, but actual True',
    policy(onCond('Ignore', DT, 'False')),
    withCondition(DT, 'True'),
    { countFailed: true },
  ],
  [
    'ignore rule does not match when status for pattern is True, but actual False',
    policy(onCond('Ignore', DT, 'True')),
    withCondition(DT, 'False'),
    { countFailed: true },
  ],
  [
    'default - do not match condition with status=False',
    policy(onCond('Ignore', DT, 'True')),
    withCondition(DT, 'False'),
    { countFailed: true },
  ],
  [
    'job fail rule matched for pod conditions',
    policy(onCond('FailJob', DT, 'True')),
    withCondition(DT, 'True'),
    {
      failJobMessage: 'Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0',
      countFailed: true,
      action: 'FailJob',
    },
  ],
  [
    'count rule matched for pod conditions',
    policy(onCond('Count', DT, 'True')),
    withCondition(DT, 'True'),
    { countFailed: true, action: 'Count' },
  ],
  [
    'no rule matched',
    policy(
      onExit('Count', 'NotIn', [8]),
      onExit('Ignore', 'In', [1, 2, 3]),
      onExit('FailJob', 'NotIn', [5, 6, 7]),
      onCond('Count', 'ResourceLimitExceeded', 'True'),
      onCond('Ignore', DT, 'True'),
    ),
    withExits(exited(32)),
    { countFailed: true, action: 'Count' },
  ],
];

describe('TestMatchPodFailurePolicy', () => {
  it.each(cases)('%s', (_name, pfp, pod, want) => expect(matchPodFailurePolicy(pfp, pod)).toEqual(want));
});

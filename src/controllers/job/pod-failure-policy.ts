/**
 * Matching a failed pod against a Job's podFailurePolicy (upstream 1.33
 * pkg/controller/job/pod_failure_policy.go matchPodFailurePolicy, matchOnExitCodes,
 * matchOnPodConditions): rules are tried in order; an onExitCodes rule matches the first
 * terminated container (then init container) with a non-zero exit code the operator accepts,
 * an onPodConditions rule the first pod condition of a listed type and status. Pure.
 */
import type { JobSpec } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';

/** The actions of a rule. */
export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';

/** spec.podFailurePolicy. */
export type PodFailurePolicy = NonNullable<JobSpec['podFailurePolicy']>;
type Rule = PodFailurePolicy['rules'][number];
type ContainerStatus = NonNullable<NonNullable<Pod['status']>['containerStatuses']>[number];

/** What matching found. */
export interface PolicyMatch {
  /** The Job's failure message when a FailJob rule matched. */
  readonly failJobMessage?: string;
  /** Whether the failure counts towards backoffLimit (false for Ignore). */
  readonly countFailed: boolean;
  /** The action of the matched rule, undefined when none matched. */
  readonly action?: PodFailurePolicyAction;
}

const NO_MATCH: PolicyMatch = { countFailed: true };

/** The policy's verdict on the failed pod `pod` (upstream matchPodFailurePolicy). */
export function matchPodFailurePolicy(policy: PodFailurePolicy | null | undefined, pod: Pod): PolicyMatch {
  if (!policy) return NO_MATCH;
  const ref = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    let failMessage: (() => string) | undefined;
    if (rule.onExitCodes) {
      const status = matchOnExitCodes(pod, rule.onExitCodes);
      if (!status) continue;
      const code = status.state?.terminated?.exitCode;
      failMessage = () =>
        `Container ${status.name} for pod ${ref} failed with exit code ${code} matching ${rule.action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const cond = matchOnPodConditions(pod, rule.onPodConditions);
      if (!cond) continue;
      failMessage = () => `Pod ${ref} has condition ${cond.type} matching ${rule.action} rule at index ${index}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      case 'FailIndex':
        return { countFailed: true, action: 'FailIndex' };
      case 'Count':
        return { countFailed: true, action: 'Count' };
      case 'FailJob':
        return { failJobMessage: failMessage(), countFailed: true, action: 'FailJob' };
    }
  }
  return NO_MATCH;
}

/** The first terminated container status (containers, then init containers) the requirement matches. */
function matchOnExitCodes(pod: Pod, req: NonNullable<Rule['onExitCodes']>): ContainerStatus | undefined {
  return (
    matchingContainer(pod.status?.containerStatuses ?? [], req) ??
    matchingContainer(pod.status?.initContainerStatuses ?? [], req)
  );
}

function matchingContainer(
  statuses: readonly ContainerStatus[],
  req: NonNullable<Rule['onExitCodes']>,
): ContainerStatus | undefined {
  for (const s of statuses) {
    const terminated = s.state?.terminated;
    if (!terminated) continue;
    if (req.containerName && req.containerName !== s.name) continue;
    const code = terminated.exitCode ?? 0;
    if (code !== 0 && operatorMatches(code, req)) return s;
  }
  return undefined;
}

function operatorMatches(code: number, req: NonNullable<Rule['onExitCodes']>): boolean {
  if (req.operator === 'In') return req.values.includes(code);
  if (req.operator === 'NotIn') return !req.values.includes(code);
  return false;
}

/** The first pod condition whose type and status a pattern lists. */
function matchOnPodConditions(pod: Pod, patterns: NonNullable<Rule['onPodConditions']>) {
  for (const c of pod.status?.conditions ?? [])
    for (const p of patterns) if (c.type === p.type && c.status === (p.status ?? 'True')) return c;
  return undefined;
}

/**
 * Job fields of batch/v1 as Kubernetes 1.33 has them (k8s.io/api batch/v1 types.go), with the
 * list strategies of its tags beside each list: status.conditions merges by `type` for
 * strategic merge patch and is atomic for server-side apply, as upstream declares it.
 */
import { z } from 'zod';
import type { KindObject } from '../../registry/types.js';
import { kindSchema, strictObjectMeta } from '../../api/meta-schema.js';
import { declared } from '../../api/core/patch-info.js';
import {
  bool,
  int,
  labelSelector,
  list,
  mergedList,
  obj,
  reqObj,
  reqStr,
  str,
  time,
} from '../../api/core/schema-kit.js';
import { podSpec } from '../../api/core/pod-spec.js';

/** PodTemplateSpec: the pods a controller creates. */
export const podTemplateSpec = obj({
  metadata: strictObjectMeta,
  spec: podSpec.nullable().optional(),
});

const podFailurePolicyRule = reqObj({
  action: reqStr.describe('What to do when a pod failure matches: FailJob, FailIndex, Ignore or Count.'),
  onExitCodes: obj({
    containerName: str.describe('Only the exit codes of this container (or init container) are checked.'),
    operator: reqStr.describe('In or NotIn: whether the exit code must be among `values`.'),
    values: z.array(z.number().int()).describe('Exit codes, ordered, without duplicates; at most 255.'),
  }).describe('Matches by the exit codes of the failed containers.'),
  onPodConditions: list(
    reqObj({
      status: str.describe('Status of the pod condition to match (default True).'),
      type: reqStr.describe('Type of the pod condition to match.'),
    }),
  ).describe('Matches when one of these pod conditions is present; at most 20.'),
});

const successPolicyRule = reqObj({
  succeededCount: int.describe('Minimum number of succeeded indexes (among succeededIndexes, if set).'),
  succeededIndexes: str.describe('Indexes that must succeed, as a list of intervals such as "1,3-5,7".'),
});

/** JobSpec fields (also a CronJob's jobTemplate.spec). */
export const jobSpecShape = {
  activeDeadlineSeconds: int.describe(
    'Seconds the job may be active, counted from startTime, before the system terminates it; a positive integer.',
  ),
  backoffLimit: int.describe('Retries before the job is marked failed (default 6).'),
  backoffLimitPerIndex: int.describe(
    'Retries within one index before that index is marked failed (Indexed completion mode only).',
  ),
  completionMode: str.describe(
    'NonIndexed (default): complete when `completions` pods succeeded; Indexed: each pod gets an index and the job completes when each index succeeded.',
  ),
  completions: int.describe('Number of pods that must succeed; unset means any one success completes the job.'),
  managedBy: str.describe(
    'Controller that synchronizes the job: kubernetes.io/job-controller (default) or another, domain-prefixed path.',
  ),
  manualSelector: bool.describe(
    'When true, the selector is taken as given; by default the system generates it from the job uid.',
  ),
  maxFailedIndexes: int.describe('Failed indexes tolerated before the job fails (needs backoffLimitPerIndex).'),
  parallelism: int.describe('Maximum number of pods running at once (default 1).'),
  podFailurePolicy: obj({
    rules: z.array(podFailurePolicyRule).describe('Rules evaluated in order; at most 20.'),
  }).describe('How failed pods count towards backoffLimit; immutable.'),
  podReplacementPolicy: str.describe(
    'When replacement pods are created: TerminatingOrFailed (default) or Failed (once a pod is fully terminated).',
  ),
  selector: labelSelector.describe('Label query over the pods of the job; generated unless manualSelector is true.'),
  successPolicy: obj({
    rules: z.array(successPolicyRule).describe('Alternative rules for declaring the job succeeded; at most 20.'),
  }).describe('When an Indexed job counts as succeeded before all indexes succeeded; immutable.'),
  suspend: bool.describe('When true, no pods are created and running pods are terminated (default false).'),
  template: podTemplateSpec.describe(
    'Pod created by the job; restartPolicy Never or OnFailure. Immutable except as suspended jobs allow.',
  ),
  ttlSecondsAfterFinished: int.describe('Seconds after the job finished before it is deleted automatically.'),
};

export const jobCondition = reqObj({
  lastProbeTime: time.describe('Last time the condition was checked.'),
  lastTransitionTime: time.describe('Last time the condition changed from one status to another.'),
  message: str.describe('Human-readable details of the last transition.'),
  reason: str.describe('One-word CamelCase reason of the last transition.'),
  status: reqStr.describe('True, False or Unknown.'),
  type: reqStr.describe('Complete, Failed, Suspended, FailureTarget or SuccessCriteriaMet.'),
});

export const jobSchema = kindSchema({
  spec: obj(jobSpecShape).describe('What the job runs and how it completes.'),
  status: obj({
    active: int.describe('Pending and running pods not being terminated.'),
    completedIndexes: str.describe('Completed indexes of an Indexed job, as intervals ("1,3-5,7").'),
    completionTime: time.describe('When the job completed; set only with the Complete condition.'),
    conditions: declared(mergedList(jobCondition, { key: 'type' }), { listType: 'atomic' }).describe(
      'Latest observations of the job: Complete and Failed are terminal and cannot be turned off.',
    ),
    failed: int.describe('Pods that reached phase Failed.'),
    failedIndexes: str.describe('Failed indexes when backoffLimitPerIndex is set, as intervals.'),
    ready: int.describe('Active pods with the Ready condition.'),
    startTime: time.describe('When the job controller started processing the job.'),
    succeeded: int.describe('Pods that reached phase Succeeded.'),
    terminating: int.describe('Pods terminating (with a deletionTimestamp) and not yet Failed or Succeeded.'),
    uncountedTerminatedPods: obj({
      failed: declared(list(z.string()), { listType: 'set' }).describe('UIDs of failed pods not yet counted.'),
      succeeded: declared(list(z.string()), { listType: 'set' }).describe('UIDs of succeeded pods not yet counted.'),
    }).describe('UIDs of finished pods the controller has not yet counted in the status counters.'),
  }).describe('Current state of the job, written by the job controller.'),
});

/** A Job as its schema describes it. */
export type Job = KindObject<typeof jobSchema>;
export type JobSpec = NonNullable<Job['spec']>;
export type JobStatus = NonNullable<Job['status']>;
export type JobConditionItem = z.infer<typeof jobCondition>;

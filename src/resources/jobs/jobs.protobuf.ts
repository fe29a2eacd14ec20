/**
 * Protobuf messages of batch/v1 Job and CronJob (notation in api/protobuf/messages.ts; field
 * numbers from k8s.io/api batch/v1 generated.proto of Kubernetes 1.33). JobSpec and
 * JobTemplateSpec are shared with the CronJob's messages.
 */
import { listMessage, type MessageSet } from '../../api/protobuf/messages.js';

/** The JobSpec family of batch/v1 (also what a batch/v1 CronJob's jobTemplate carries). */
export const JOB_SPEC_MESSAGES: MessageSet = {
  JobSpec:
    'parallelism=1:int32! completions=2:int32! activeDeadlineSeconds=3:int64! podFailurePolicy=11:PodFailurePolicy successPolicy=16:SuccessPolicy backoffLimit=7:int32! backoffLimitPerIndex=12:int32! maxFailedIndexes=13:int32! selector=4:LabelSelector manualSelector=5:bool! template=6:PodTemplateSpec ttlSecondsAfterFinished=8:int32! completionMode=9! suspend=10:bool! podReplacementPolicy=14! managedBy=15!',
  JobTemplateSpec: 'metadata=1:ObjectMeta spec=2:JobSpec',
  PodFailurePolicy: 'rules=1:[]PodFailurePolicyRule',
  PodFailurePolicyRule:
    'action=1! onExitCodes=2:PodFailurePolicyOnExitCodesRequirement onPodConditions=3:[]PodFailurePolicyOnPodConditionsPattern',
  PodFailurePolicyOnExitCodesRequirement: 'containerName=1! operator=2! values=3:[]int32',
  PodFailurePolicyOnPodConditionsPattern: 'type=1! status=2!',
  SuccessPolicy: 'rules=1:[]SuccessPolicyRule',
  SuccessPolicyRule: 'succeededIndexes=1! succeededCount=2:int32!',
};

export const JOB_MESSAGES: MessageSet = {
  ...listMessage('Job'),
  ...JOB_SPEC_MESSAGES,
  Job: 'metadata=1:ObjectMeta spec=2:JobSpec status=3:JobStatus',
  JobCondition: 'type=1! status=2! lastProbeTime=3:Time lastTransitionTime=4:Time reason=5 message=6',
  JobStatus:
    'conditions=1:[]JobCondition startTime=2:Time completionTime=3:Time active=4:int32 succeeded=5:int32 failed=6:int32 terminating=11:int32! completedIndexes=7 failedIndexes=10! uncountedTerminatedPods=8:UncountedTerminatedPods ready=9:int32!',
  UncountedTerminatedPods: 'succeeded=1:[]string failed=2:[]string',
};

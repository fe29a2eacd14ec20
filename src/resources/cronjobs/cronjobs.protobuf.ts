/**
 * Protobuf messages of CronJob (notation in api/protobuf/messages.ts; field numbers from
 * k8s.io/api generated.proto: batch/v1 of Kubernetes 1.33, batch/v1beta1 and batch/v2alpha1
 * of 1.10, whose jobTemplate carries 1.10's batch/v1 JobSpec, defined here in their package).
 */
import { listMessage, type MessageSet, type ProtoMessages } from '../../api/protobuf/messages.js';
import { JOB_SPEC_MESSAGES } from '../jobs/jobs.protobuf.js';

export const CRONJOB_V1_MESSAGES: ProtoMessages = {
  'batch/v1': {
    ...listMessage('CronJob'),
    ...JOB_SPEC_MESSAGES,
    CronJob: 'metadata=1:ObjectMeta spec=2:CronJobSpec status=3:CronJobStatus',
    CronJobSpec:
      'schedule=1! timeZone=8! startingDeadlineSeconds=2:int64! concurrencyPolicy=3 suspend=4:bool! jobTemplate=5:JobTemplateSpec successfulJobsHistoryLimit=6:int32! failedJobsHistoryLimit=7:int32!',
    CronJobStatus: 'active=1:[]ObjectReference lastScheduleTime=4:Time lastSuccessfulTime=5:Time',
  },
};

const CRONJOB_110: MessageSet = {
  ...listMessage('CronJob'),
  CronJob: 'metadata=1:ObjectMeta spec=2:CronJobSpec status=3:CronJobStatus',
  CronJobSpec:
    'schedule=1! startingDeadlineSeconds=2:int64! concurrencyPolicy=3 suspend=4:bool! jobTemplate=5:JobTemplateSpec successfulJobsHistoryLimit=6:int32! failedJobsHistoryLimit=7:int32!',
  CronJobStatus: 'active=1:[]ObjectReference lastScheduleTime=4:Time',
  JobTemplateSpec: 'metadata=1:ObjectMeta spec=2:JobSpec',
  JobSpec:
    'parallelism=1:int32! completions=2:int32! activeDeadlineSeconds=3:int64! selector=4:LabelSelector manualSelector=5:bool! template=6:PodTemplateSpec backoffLimit=7:int32!',
};

/** The messages of 1.10's `version` (v1beta1 or v2alpha1). */
export const cronJob110Messages = (version: string): ProtoMessages => ({ [`batch/${version}`]: CRONJOB_110 });

/**
 * Rows of the resource table added for issue 30 (see the comment at the end of
 * src/resources/table.ts for which groups each file serves); each row's kind lives in its own
 * folder under src/resources/.
 */
import type { ResourceDefinition } from '../../registry/types.js';
import { cronJobs, cronJobsV1beta1, cronJobsV2alpha1 } from '../cronjobs/cronjobs.resource.js';
import {
  horizontalPodAutoscalers,
  horizontalPodAutoscalersV1,
  horizontalPodAutoscalersV2beta1,
} from '../horizontalpodautoscalers/hpa.resource.js';
import { jobs } from '../jobs/jobs.resource.js';

export const ROWS: readonly ResourceDefinition[] = [
  jobs,
  cronJobs,
  cronJobsV1beta1,
  cronJobsV2alpha1,
  horizontalPodAutoscalers,
  horizontalPodAutoscalersV1,
  horizontalPodAutoscalersV2beta1,
];

/**
 * What one sync of a Job knows (upstream 1.33 pkg/controller/job syncJobCtx), and the pod
 * filter the counting uses (getValidPodsWithFilter).
 */
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { BackoffRecord } from './backoff.js';
import type { Interval } from './intervals.js';
import { completionIndexOf, hasTrackingFinalizer, isIndexedJob, UNKNOWN_INDEX, type JobCondition } from './job-util.js';

/** The state of one sync. `job` is the sync's own copy; its status is rewritten as the sync goes. */
export interface SyncJobCtx {
  job: Job;
  /** The pods the job owns after claiming. */
  pods: Pod[];
  activePods: Pod[];
  finishedCondition?: JobCondition;
  succeeded: number;
  failed: number;
  prevSucceededIndexes: Interval[];
  succeededIndexes: Interval[];
  /** Set when backoffLimitPerIndex is used. */
  failedIndexes?: Interval[];
  newBackoffRecord: BackoffRecord;
  /** Pod uids whose finalizer removal is expected but not yet observed. */
  expectedRmFinalizers: ReadonlySet<string>;
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  /** The failed pod per index whose finalizer removal waits for its replacement (backoffLimitPerIndex). */
  podsWithDelayedDeletionPerIndex?: Map<number, Pod>;
  terminating: number;
  ready: number;
}

/**
 * The pods with the tracking finalizer, not in `uncounted` nor awaiting finalizer removal,
 * with (for Indexed jobs) a valid index below completions, that `filter` accepts.
 */
export function validPodsWithFilter(
  ctx: SyncJobCtx,
  uncounted: ReadonlySet<string> | undefined,
  filter: (p: Pod) => boolean,
): Pod[] {
  const completions = ctx.job.spec?.completions ?? 0;
  return ctx.pods.filter((p) => {
    const uid = p.metadata.uid ?? '';
    if (!hasTrackingFinalizer(p) || uncounted?.has(uid) || ctx.expectedRmFinalizers.has(uid)) return false;
    if (isIndexedJob(ctx.job)) {
      const ix = completionIndexOf(p);
      if (ix === UNKNOWN_INDEX || ix >= completions) return false;
    }
    return filter(p);
  });
}

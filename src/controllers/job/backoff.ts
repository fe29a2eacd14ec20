/**
 * The delay before a Job's failed pods are replaced (upstream 1.33
 * pkg/controller/job/backoff_utils.go): a record per job of the failures since the last
 * success and when the last one happened; the delay is 10 s doubled per further failure, at
 * most MAX_POD_FAILURE_BACKOFF_MS, less the time since that failure. With backoffLimitPerIndex
 * the same delay is computed per index from the last failed pod's failure-count annotations.
 * Times are ms since the epoch.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import { INDEX_FAILURE_COUNT, INDEX_IGNORED_FAILURE_COUNT, timeOf } from './job-util.js';

/** Upstream DefaultJobPodFailureBackOff (ms). */
export const DEFAULT_POD_FAILURE_BACKOFF_MS = 10_000;
/** Upstream MaxJobPodFailureBackOff in 1.33 (ms): 10 minutes. */
export const MAX_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

/** Failures of a job's pods since its last success (upstream backoffRecord). */
export interface BackoffRecord {
  readonly key: string;
  readonly failuresAfterLastSuccess: number;
  /** When the last of them finished, undefined when none. */
  readonly lastFailureTime?: number;
}

/** The records of every job, by key (upstream backoffStore). */
export class BackoffStore {
  private readonly records = new Map<string, BackoffRecord>();

  /** Store `record` under its key. */
  update(record: BackoffRecord): void {
    this.records.set(record.key, record);
  }

  /** Forget the job `key` (finished or deleted). */
  remove(key: string): void {
    this.records.delete(key);
  }

  /** The record of `key`, if any. */
  get(key: string): BackoffRecord | undefined {
    return this.records.get(key);
  }

  /**
   * The record of `key` after the newly finished pods (upstream newBackoffRecord): failures
   * add up while nothing succeeded; after a success only the failures finished later count.
   */
  newRecord(key: string, succeeded: readonly Pod[], failed: readonly Pod[]): BackoffRecord {
    const old = this.records.get(key) ?? { key, failuresAfterLastSuccess: 0 };
    const s = sortByFinishedTime(succeeded);
    const f = sortByFinishedTime(failed);
    if (!s.length) {
      if (!f.length) return old;
      return {
        key,
        failuresAfterLastSuccess: old.failuresAfterLastSuccess + f.length,
        lastFailureTime: finishedTime(f[f.length - 1]!),
      };
    }
    const lastSuccess = finishedTime(s[s.length - 1]!);
    let failures = 0;
    let lastFailureTime: number | undefined;
    for (let i = f.length - 1; i >= 0; i--) {
      const t = finishedTime(f[i]!);
      if (t <= lastSuccess) break;
      lastFailureTime ??= t;
      failures++;
    }
    return { key, failuresAfterLastSuccess: failures, lastFailureTime };
  }
}

/** The pods sorted by when they finished, earliest first (stable). */
export function sortByFinishedTime(pods: readonly Pod[]): Pod[] {
  return [...pods].sort((a, b) => finishedTime(a) - finishedTime(b));
}

/**
 * When the pod finished (upstream getFinishedTime): the latest container (and init container)
 * finishedAt when every one terminated; else the Ready=False condition's transition; else deletionTimestamp
 * less the grace period; else the creation time.
 */
export function finishedTime(pod: Pod): number {
  return (
    finishTimeFromContainers(pod) ?? finishTimeFromReadyFalse(pod) ?? finishTimeFromDeletion(pod) ?? createdAt(pod)
  );
}

function finishTimeFromContainers(pod: Pod): number | undefined {
  // Init container statuses count too: sidecar (restartable init) containers finish last.
  return latestFinishTime(
    latestFinishTime(undefined, pod.status?.containerStatuses),
    pod.status?.initContainerStatuses,
  );
}

/** The latest finishedAt of `statuses` and `prev`; undefined when any has not terminated with a time. */
function latestFinishTime(
  prev: number | undefined,
  statuses: NonNullable<Pod['status']>['containerStatuses'],
): number | undefined {
  let latest = prev;
  for (const s of statuses ?? []) {
    const at = timeOf(s.state?.terminated?.finishedAt);
    if (at === undefined) return undefined;
    if (latest === undefined || latest < at) latest = at;
  }
  return latest;
}

function finishTimeFromReadyFalse(pod: Pod): number | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === 'Ready');
  return c?.status === 'False' ? timeOf(c.lastTransitionTime) : undefined;
}

function finishTimeFromDeletion(pod: Pod): number | undefined {
  const at = timeOf(pod.metadata.deletionTimestamp);
  return at === undefined ? undefined : at - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
}

function createdAt(pod: Pod): number {
  return timeOf(pod.metadata.creationTimestamp) ?? 0;
}

/** The delay left for the record's failures at `now` (upstream getRemainingTime). */
export function remainingTime(
  record: BackoffRecord,
  now: number,
  base = DEFAULT_POD_FAILURE_BACKOFF_MS,
  max = MAX_POD_FAILURE_BACKOFF_MS,
): number {
  return remainingForFailures(now, base, max, record.failuresAfterLastSuccess, record.lastFailureTime);
}

/**
 * The delay left before index of `lastFailedPod` may get a new pod (upstream
 * getRemainingTimePerIndex): 0 without a previous failure.
 */
export function remainingTimePerIndex(
  lastFailedPod: Pod | undefined,
  now: number,
  base = DEFAULT_POD_FAILURE_BACKOFF_MS,
  max = MAX_POD_FAILURE_BACKOFF_MS,
): number {
  if (!lastFailedPod) return 0;
  return remainingForFailures(
    now,
    base,
    max,
    absoluteIndexFailureCount(lastFailedPod) + 1,
    finishedTime(lastFailedPod),
  );
}

/** Upstream getRemainingTimeForFailuresCount. */
export function remainingForFailures(
  now: number,
  base: number,
  max: number,
  failures: number,
  lastFailureTime: number | undefined,
): number {
  if (failures === 0) return 0;
  let backoff = base;
  for (let i = 1; i < failures; i++) {
    backoff *= 2;
    if (backoff >= max) {
      backoff = max;
      break;
    }
  }
  const elapsed = now - (lastFailureTime ?? 0);
  return backoff < elapsed ? 0 : backoff - elapsed;
}

/** An int32 annotation, 0 when absent, unparsable, negative or too large (upstream parseInt32). */
function int32Annotation(pod: Pod, key: string): number {
  const v = pod.metadata.annotations?.[key];
  if (v === undefined || !/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return n < 0 || n > 2 ** 31 - 1 ? 0 : n;
}

/** The counted failures of the pod's index before it (the job-index-failure-count annotation). */
export function indexFailureCount(pod: Pod): number {
  return int32Annotation(pod, INDEX_FAILURE_COUNT);
}

/** The ignored failures of the pod's index before it. */
export function indexIgnoredFailureCount(pod: Pod): number {
  return int32Annotation(pod, INDEX_IGNORED_FAILURE_COUNT);
}

/** Counted and ignored failures of the pod's index (upstream getIndexAbsoluteFailureCount). */
export function absoluteIndexFailureCount(pod: Pod): number {
  return indexFailureCount(pod) + indexIgnoredFailureCount(pod);
}

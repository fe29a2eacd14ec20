/**
 * Indexed Jobs (upstream 1.33 pkg/controller/job/indexed_job_utils.go): which indexes
 * succeeded or failed, which are pending, which active pods duplicate an index, which failed
 * pod of an index waits for its replacement, and what a new pod of an index carries (the
 * completion-index annotation and label, hostname `<job>-<index>`, generateName
 * `<job>-<index>-`, the failure-count annotations). Pure.
 */
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { sortForDeletion } from '../replicaset/pod-ranking.js';
import { absoluteIndexFailureCount, finishedTime, indexFailureCount, indexIgnoredFailureCount } from './backoff.js';
import { validPodsWithFilter, type SyncJobCtx } from './job-ctx.js';
import {
  COMPLETION_INDEX,
  completionIndexOf,
  hasTrackingFinalizer,
  INDEX_FAILURE_COUNT,
  INDEX_IGNORED_FAILURE_COUNT,
  isPodFailed,
  isPodTerminating,
  onlyReplaceFailedPods,
  UNKNOWN_INDEX,
} from './job-util.js';
import { hasIndex, mergeIntervals, parseIndexes, withOrderedIndexes, type Interval } from './intervals.js';
import { matchPodFailurePolicy } from './pod-failure-policy.js';
import type { PodTemplate } from '../replicaset/workload.js';

/** Longest generateName prefix (upstream names.MaxGeneratedNameLength: 63 less 5 random characters). */
const MAX_GENERATED_NAME_LENGTH = 58;

const sortedSet = (s: Set<number>) => [...s].sort((a, b) => a - b);

/**
 * The completed indexes before and after this sync (upstream calculateSucceededIndexes):
 * status.completedIndexes, then with the indexes of succeeded pods still holding the finalizer.
 */
export function calculateSucceededIndexes(job: Job, pods: readonly Pod[]): [Interval[], Interval[]] {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexes(job.status?.completedIndexes, completions);
  const added = new Set<number>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (p.status?.phase === 'Succeeded' && ix !== UNKNOWN_INDEX && ix < completions && hasTrackingFinalizer(p))
      added.add(ix);
  }
  return [prev, withOrderedIndexes(prev, sortedSet(added))];
}

/** status.failedIndexes with the indexes failed since (upstream calculateFailedIndexes). */
export function calculateFailedIndexes(job: Job, pods: readonly Pod[]): Interval[] {
  const completions = job.spec?.completions ?? 0;
  const prev = parseIndexes(job.status?.failedIndexes, completions);
  const added = new Set<number>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix !== UNKNOWN_INDEX && ix < completions && hasTrackingFinalizer(p) && isIndexFailed(job, p)) added.add(ix);
  }
  return withOrderedIndexes(prev, sortedSet(added));
}

/** Whether the failed pod fails its index: a FailIndex rule, or counted failures reaching backoffLimitPerIndex. */
export function isIndexFailed(job: Job, pod: Pod): boolean {
  if (!isPodFailed(pod, job)) return false;
  let counted = true;
  if (job.spec?.podFailurePolicy) {
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, pod);
    if (m.action === 'FailIndex') return true;
    counted = m.countFailed;
  }
  return counted && indexFailureCount(pod) >= (job.spec?.backoffLimitPerIndex ?? 0);
}

/** The indexes of the pods that have one. */
export function indexesOf(pods: readonly Pod[]): Set<number> {
  const out = new Set<number>();
  for (const p of pods) {
    const ix = completionIndexOf(p);
    if (ix !== UNKNOWN_INDEX) out.add(ix);
  }
  return out;
}

/**
 * The first `count` indexes below `completions` that are neither active, succeeded, failed,
 * nor (when only failed pods are replaced) held by a terminating pod (upstream firstPendingIndexes).
 */
export function firstPendingIndexes(ctx: SyncJobCtx, count: number, completions: number): number[] {
  if (count === 0) return [];
  let nonPending = withOrderedIndexes(ctx.succeededIndexes, sortedSet(indexesOf(ctx.activePods)));
  if (onlyReplaceFailedPods(ctx.job))
    nonPending = withOrderedIndexes(nonPending, sortedSet(indexesOf(ctx.pods.filter(isPodTerminating))));
  if (ctx.failedIndexes) nonPending = mergeIntervals(nonPending, ctx.failedIndexes);
  const out: number[] = [];
  let candidate = 0;
  for (const iv of nonPending) {
    for (; candidate < completions && out.length < count && candidate < iv.first; candidate++) out.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && out.length < count; candidate++) out.push(candidate);
  return out;
}

/** Pods by completion index, stable (upstream byCompletionIndex). */
export function sortByCompletionIndex(pods: readonly Pod[]): Pod[] {
  return [...pods].sort((a, b) => completionIndexOf(a) - completionIndexOf(b));
}

/** Pods in upstream controller.ActivePods order: those to delete first come first. */
export function sortActivePods(pods: readonly Pod[]): Pod[] {
  return sortForDeletion(pods.map((pod) => ({ pod, rank: 0 }))).map((r) => r.pod);
}

/**
 * Split active `pods` into those to remove and those left (upstream
 * appendDuplicatedIndexPodsForRemoval): pods without an index or with one >= completions are
 * removed; of several pods of one index all but the last in ActivePods order are removed.
 */
export function duplicatedIndexPodsForRemoval(pods: readonly Pod[], completions: number): { rm: Pod[]; left: Pod[] } {
  const rm: Pod[] = [];
  const left: Pod[] = [];
  const sorted = sortByCompletionIndex(pods);
  const flush = (group: Pod[], ix: number) => {
    if (!group.length) return;
    if (ix === UNKNOWN_INDEX) return void rm.push(...group);
    if (group.length === 1) return void left.push(group[0]!);
    const ordered = sortActivePods(group);
    rm.push(...ordered.slice(0, -1));
    left.push(ordered[ordered.length - 1]!);
  };
  let group: Pod[] = [];
  let lastIndex = UNKNOWN_INDEX;
  for (const [i, p] of sorted.entries()) {
    const ix = completionIndexOf(p);
    if (ix >= completions) {
      rm.push(...sorted.slice(i));
      break;
    }
    if (ix !== lastIndex) {
      flush(group, lastIndex);
      group = [];
      lastIndex = ix;
    }
    group.push(p);
  }
  flush(group, lastIndex);
  return { rm, left };
}

/**
 * For each index neither succeeded, failed nor active, its last failed pod (most failures,
 * then latest finish), whose finalizer stays until the replacement carries its failure count
 * (upstream getPodsWithDelayedDeletionPerIndex).
 */
export function podsWithDelayedDeletionPerIndex(ctx: SyncJobCtx): Map<number, Pod> {
  const active = indexesOf(ctx.activePods);
  const completions = ctx.job.spec?.completions ?? 0;
  const out = new Map<number, Pod>();
  validPodsWithFilter(ctx, undefined, (p) => {
    if (!isPodFailed(p, ctx.job)) return false;
    const ix = completionIndexOf(p);
    if (ix === UNKNOWN_INDEX || ix >= completions) return false;
    if (hasIndex(ctx.succeededIndexes, ix) || hasIndex(ctx.failedIndexes, ix) || active.has(ix)) return false;
    const last = out.get(ix);
    if (
      !last ||
      (absoluteIndexFailureCount(last) <= absoluteIndexFailureCount(p) && finishedTime(p) >= finishedTime(last))
    )
      out.set(ix, p);
    return false;
  });
  return out;
}

/** The failure counts a replacement of `replaced` starts with: its counts plus its own failure. */
export function newIndexFailureCounts(job: Job, replaced: Pod | undefined): [number, number] {
  if (!replaced) return [0, 0];
  let counted = indexFailureCount(replaced);
  let ignored = indexIgnoredFailureCount(replaced);
  if (!job.spec?.podFailurePolicy || matchPodFailurePolicy(job.spec.podFailurePolicy, replaced).countFailed) counted++;
  else ignored++;
  return [counted, ignored];
}

/** `<job>-<index>-`, the job name cut so the prefix fits (upstream podGenerateNameWithIndex). */
export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > MAX_GENERATED_NAME_LENGTH
    ? prefix.slice(0, MAX_GENERATED_NAME_LENGTH - suffix.length) + suffix
    : prefix;
}

/**
 * The template of the pod for `index`: the completion-index annotation and label, hostname
 * `<job>-<index>`, and with backoffLimitPerIndex the failure counts carried over from `replaced`.
 */
export function templateForIndex(
  job: Job,
  template: PodTemplate,
  index: number,
  replaced: Pod | undefined,
): PodTemplate {
  const meta = template.metadata ?? {};
  const annotations: Record<string, string> = { ...(meta.annotations ?? {}), [COMPLETION_INDEX]: `${index}` };
  if (job.spec?.backoffLimitPerIndex != null) {
    const [counted, ignored] = newIndexFailureCounts(job, replaced);
    annotations[INDEX_FAILURE_COUNT] = `${counted}`;
    if (ignored > 0) annotations[INDEX_IGNORED_FAILURE_COUNT] = `${ignored}`;
  }
  return {
    ...template,
    metadata: { ...meta, annotations, labels: { ...(meta.labels ?? {}), [COMPLETION_INDEX]: `${index}` } },
    spec: template.spec ? { ...template.spec, hostname: `${job.metadata.name}-${index}` } : template.spec,
  };
}

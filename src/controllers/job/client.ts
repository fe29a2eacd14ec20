/**
 * What a sync of the Job controller reads and writes (upstream 1.33 pkg/controller/job: the
 * job and pod listers, the clientset's Jobs().Get and UpdateStatus, RealPodControl's
 * CreatePods/DeletePod/PatchPod, the event recorder), and the expectations it keeps across
 * syncs. The I/O is behind {@link JobClient} so the logic runs against a fake in unit tests.
 */
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { ClaimWrites } from '../replicaset/claim.js';
import type { ControllerExpectations } from '../replicaset/expectations.js';
import type { BackoffStore } from './backoff.js';

/** The reasons of the Events the controller records (Normal unless listed as Warning). */
export type JobEventType = 'Normal' | 'Warning';

/** Reads and writes of one sync. Pod writes throw ApiError (404 when the pod is gone). */
export interface JobClient extends ClaimWrites {
  /** The job from the cache, undefined when absent. */
  getJob(namespace: string, name: string): Promise<Job | undefined>;
  /** A quorum read of the job (before adopting). Throws ApiError 404. */
  getJobFresh(namespace: string, name: string): Promise<Job>;
  /** The namespace's pods (from the cache). */
  listPods(namespace: string): Promise<Pod[]>;
  /** Create `pod` (generateName set) for `job`; records SuccessfulCreate / FailedCreate. */
  createPod(namespace: string, pod: Pod, job: Job): Promise<void>;
  /** Delete the pod for `job` (graceful); records SuccessfulDelete / FailedDelete. */
  deletePod(namespace: string, name: string, job: Job): Promise<void>;
  /** Remove the tracking finalizer from the pod (a no-op when it has none). */
  removeTrackingFinalizer(pod: Pod): Promise<void>;
  /** Write `job.status` through `/status` (409 when the job changed since read); returns the stored job. */
  updateStatus(job: Job): Promise<Job>;
  /** Record an Event about the job. */
  recordEvent(job: Job, type: JobEventType, reason: string, message: string): void;
}

/**
 * The pod uids of each job whose tracking-finalizer removal was requested and not yet
 * observed (upstream uidTrackingExpectations of tracking_utils.go).
 */
export class FinalizerExpectations {
  private readonly byKey = new Map<string, Set<string>>();

  /** The uids still expected for `key`. */
  expectedUids(key: string): ReadonlySet<string> {
    return new Set(this.byKey.get(key) ?? []);
  }

  /** Expect the removal of the finalizers of `uids`. */
  expectRemoved(key: string, uids: readonly string[]): void {
    const set = this.byKey.get(key) ?? new Set<string>();
    for (const uid of uids) set.add(uid);
    this.byKey.set(key, set);
  }

  /** The finalizer of `uid` is gone (or its removal failed). */
  observed(key: string, uid: string): void {
    this.byKey.get(key)?.delete(uid);
  }

  /** Forget `key`. */
  delete(key: string): void {
    this.byKey.delete(key);
  }
}

/** Everything a sync uses beyond the key. */
export interface JobSyncDeps {
  readonly client: JobClient;
  readonly expectations: ControllerExpectations;
  readonly finalizerExpectations: FinalizerExpectations;
  readonly backoff: BackoffStore;
  /** ms since the epoch. */
  readonly now: () => number;
  /** Sync `key` again after `ms`. */
  readonly enqueueAfter: (key: string, ms: number) => void;
}

/** Upstream MaxPodCreateDeletePerSync. */
export const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
/** Upstream MaxUncountedPods. */
export const MAX_UNCOUNTED_PODS = 500;
/** Upstream syncJobBatchPeriod (ms): pod events sync the job after this delay. */
export const SYNC_JOB_BATCH_PERIOD_MS = 1000;

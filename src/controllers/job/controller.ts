/**
 * The Job controller (upstream 1.33 pkg/controller/job/job_controller.go NewController,
 * addPod/updatePod/deletePod, addJob/updateJob/deleteJob, syncOrphanPod): watches of Jobs and
 * Pods queue `namespace/name` keys (job changes at once, pod changes batched by a second);
 * each key is synced by syncJob (sync.ts). Pods that lost their Job (orphans, or of a finished
 * or deleted Job) get their tracking finalizer removed. Started by the leader; `stop()` ends
 * watches, timers and queues.
 *
 * Name in `--controllers`: `job` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events } from '../../resources/events/events.resource.js';
import { jobs as jobsResource } from '../../resources/jobs/jobs.resource.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { controllerUser } from '../controller-user.js';
import { ControllerExpectations } from '../replicaset/expectations.js';
import { controllerOf } from '../replicaset/workload.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { BackoffStore } from './backoff.js';
import { FinalizerExpectations, SYNC_JOB_BATCH_PERIOD_MS, type JobClient, type JobSyncDeps } from './client.js';
import { hasTrackingFinalizer, isJobFinished, keyOf, managedByExternalController, timeOf } from './job-util.js';
import { JOB_CONTROLLER, registryJobClient } from './registry-client.js';
import { syncJob } from './sync.js';

/** Options of the Job controller. */
export interface JobControllerOptions {
  /** How often every job is queued again (ms; default 30 s). */
  readonly resyncMs?: number;
}

export class JobController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly orphans: WorkQueue<string>;
  private readonly podsSeen = new Map<string, Pod>();
  private readonly jobsSeen = new Map<string, Job>();
  private readonly jobs: GenericStore<Job>;
  private readonly pods: GenericStore<Pod>;
  private readonly client: JobClient;
  private readonly deps: JobSyncDeps;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: JobControllerOptions = {},
  ) {
    this.jobs = registry.of(jobsResource) as GenericStore<Job>;
    this.pods = registry.of(podsResource);
    this.client = registryJobClient(
      this.jobs,
      this.pods,
      registry.of(events) as GenericStore,
      controllerUser(JOB_CONTROLLER),
      logger,
    );
    this.queue = new WorkQueue(
      (k) => k,
      (k) => syncJob(k, this.deps),
      logger,
    );
    this.orphans = new WorkQueue(
      (k) => k,
      (k) => this.syncOrphanPod(k),
      logger,
    );
    this.deps = {
      client: this.client,
      expectations: new ControllerExpectations(),
      finalizerExpectations: new FinalizerExpectations(),
      backoff: new BackoffStore(),
      now: Date.now,
      enqueueAfter: (key, ms) => this.enqueue(key, ms),
    };
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.jobs, signal, (ev) => this.onJob(ev.type, ev.object), this.logger);
    void watchLoop(this.pods, signal, (ev) => this.onPod(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 30_000, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
    this.orphans.stop();
  }

  /** Queue `key` now, or after `afterMs` (a pending earlier time for the key wins). */
  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  /** Upstream addJob/updateJob/deleteJob. */
  private onJob(type: string, job: Job): void {
    const key = keyOf(job);
    const old = this.jobsSeen.get(key);
    if (type === 'DELETED') this.jobsSeen.delete(key);
    else this.jobsSeen.set(key, job);
    if (type === 'DELETED' || (old && old.metadata.uid !== job.metadata.uid)) {
      this.deps.expectations.delete(key);
      this.deps.finalizerExpectations.delete(key);
    }
    const batched = type === 'MODIFIED' && old?.metadata.generation === job.metadata.generation;
    this.enqueue(key, batched ? SYNC_JOB_BATCH_PERIOD_MS : 0);
    if (type === 'DELETED' || isJobFinished(job)) void this.cleanupPodFinalizers(job);
    const ads = job.spec?.activeDeadlineSeconds;
    const start = timeOf(job.status?.startTime);
    if (type === 'MODIFIED' && ads != null && start !== undefined && old?.spec?.activeDeadlineSeconds !== ads)
      this.enqueue(key, Math.max(0, ads * 1000 - (Date.now() - start)));
  }

  /** The job a pod's controllerRef names, from what the watch has seen (upstream resolveControllerRef). */
  private resolve(pod: Pod): Job | undefined {
    const ref = controllerOf(pod);
    if (!ref || ref.kind !== 'Job') return undefined;
    const job = this.jobsSeen.get(`${pod.metadata.namespace ?? ''}/${ref.name}`);
    return job && job.metadata.uid === ref.uid ? job : undefined;
  }

  /** Upstream addPod/updatePod/deletePod (orphans are adopted by the periodic resync). */
  private onPod(type: string, pod: Pod): void {
    const podKey = keyOf(pod);
    const old = this.podsSeen.get(podKey);
    if (type === 'DELETED') this.podsSeen.delete(podKey);
    else this.podsSeen.set(podKey, pod);
    if (old && old.metadata.uid === pod.metadata.uid && type !== 'DELETED') {
      const oldJob = this.resolve(old);
      if (oldJob && controllerOf(old)?.uid !== controllerOf(pod)?.uid)
        this.enqueue(keyOf(oldJob), SYNC_JOB_BATCH_PERIOD_MS);
    }
    const job = this.resolve(pod);
    if (!job) {
      if (hasTrackingFinalizer(pod) && (!controllerOf(pod) || type === 'DELETED')) this.orphans.add(podKey);
      return;
    }
    const jobKey = keyOf(job);
    const deleting = type === 'DELETED' || Boolean(pod.metadata.deletionTimestamp);
    if (deleting) {
      if (isJobFinished(job)) {
        if (hasTrackingFinalizer(pod)) this.orphans.add(podKey);
        return;
      }
      this.deps.expectations.deletionObserved(jobKey, podKey);
    } else if (!old || old.metadata.uid !== pod.metadata.uid) this.deps.expectations.creationObserved(jobKey);
    if (type === 'DELETED' || !hasTrackingFinalizer(pod))
      this.deps.finalizerExpectations.observed(jobKey, pod.metadata.uid ?? '');
    this.enqueue(jobKey, SYNC_JOB_BATCH_PERIOD_MS);
  }

  /** Queue the finalizer removal of a finished or deleted job's pods (upstream cleanupPodFinalizers). */
  private async cleanupPodFinalizers(job: Job): Promise<void> {
    for (const pod of this.podsSeen.values())
      if (
        pod.metadata.namespace === job.metadata.namespace &&
        controllerOf(pod)?.uid === job.metadata.uid &&
        hasTrackingFinalizer(pod)
      )
        this.orphans.add(keyOf(pod));
  }

  /** Remove the tracking finalizer of a pod no running job owns (upstream syncOrphanPod). */
  private async syncOrphanPod(podKey: string): Promise<void> {
    const pod = this.podsSeen.get(podKey);
    if (!pod) return;
    const ref = controllerOf(pod);
    if (ref) {
      if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return;
      const found = await this.client.getJob(pod.metadata.namespace ?? '', ref.name);
      const job = found?.metadata.uid === ref.uid ? found : undefined;
      if (job && managedByExternalController(job)) return;
      if (job && !isJobFinished(job)) return;
    }
    try {
      await this.client.removeTrackingFinalizer(pod);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }

  private async resync(): Promise<void> {
    try {
      const all = await this.jobs.list('', { predicate: buildPredicate(this.jobs.def), resourceVersion: '0' });
      for (const job of all.items) this.enqueue(keyOf(job));
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'job controller resync failed');
    }
  }
}

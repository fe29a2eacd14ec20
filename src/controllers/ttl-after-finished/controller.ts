/**
 * The TTL-after-finished controller (upstream 1.33 pkg/controller/ttlafterfinished): a
 * finished Job with ttlSecondsAfterFinished is deleted with propagation Foreground (and a uid
 * precondition) once its TTL has passed, after checking the TTL again on a fresh read; until
 * then it is queued again for when the TTL ends. Jobs being deleted are left alone.
 *
 * Name in `--controllers`: `ttl-after-finished` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { jobs as jobsResource } from '../../resources/jobs/jobs.resource.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { controllerUser } from '../controller-user.js';
import { keyOf } from '../job/job-util.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { needsCleanup, timeLeft } from './ttl.js';

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

export class TtlAfterFinishedController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  private readonly jobs: GenericStore<Job>;
  private readonly user = controllerUser('ttl-after-finished-controller');

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: { readonly resyncMs?: number; readonly now?: () => number } = {},
  ) {
    this.jobs = registry.of(jobsResource) as GenericStore<Job>;
    this.queue = new WorkQueue(
      (k) => k,
      (k) => this.processJob(k),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.jobs,
      signal,
      (ev) => {
        if (ev.type !== 'DELETED' && !ev.object.metadata.deletionTimestamp && needsCleanup(ev.object))
          this.queue.add(keyOf(ev.object));
      },
      this.logger,
    );
    resyncLoop(signal, this.opts.resyncMs ?? 60_000, async () => {
      try {
        const all = await this.jobs.list('', { predicate: buildPredicate(this.jobs.def), resourceVersion: '0' });
        for (const job of all.items) if (needsCleanup(job)) this.queue.add(keyOf(job));
      } catch (err) {
        this.logger.warn({ err: errorMessage(err) }, 'ttl-after-finished resync failed');
      }
    });
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  private enqueueAfter(key: string, ms: number): void {
    this.queue.addAfter(key, ms);
  }

  /** Whether the job's TTL has passed; queues it for later when it has not (upstream processTTL). */
  private expired(job: Job): boolean {
    if (job.metadata.deletionTimestamp || !needsCleanup(job)) return false;
    const { remainingMs } = timeLeft(job, this.now());
    if (remainingMs <= 0) return true;
    this.enqueueAfter(keyOf(job), remainingMs);
    return false;
  }

  /** Upstream processJob: check the cached job, then a fresh read, then delete (Foreground, uid precondition). */
  private async processJob(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const [ns, name] = [key.slice(0, slash), key.slice(slash + 1)];
    let job: Job;
    try {
      job = await this.jobs.get(ns, name, '0');
    } catch (err) {
      if (notFound(err)) return;
      throw err;
    }
    if (!this.expired(job)) return;
    let fresh: Job;
    try {
      fresh = await this.jobs.get(ns, name);
    } catch (err) {
      if (notFound(err)) return;
      throw err;
    }
    if (!this.expired(fresh)) return;
    try {
      await deleteObject(this.jobs, ns, name, {
        user: this.user,
        propagationPolicy: 'Foreground',
        preconditions: { uid: fresh.metadata.uid },
      });
    } catch (err) {
      if (!notFound(err)) throw err;
    }
  }
}

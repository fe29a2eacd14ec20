/**
 * The CronJob controller (upstream 1.33 pkg/controller/cronjob ControllerV2): watches of
 * CronJobs and Jobs feed a de-duplicating work queue of `namespace/name` keys; each key is
 * synced by syncCronJobKey (reconcile.ts), which says when the next schedule time comes, and a
 * timer queues the key again then (no polling). A CronJob whose schedule or time zone changed is
 * queued for its new next time; any other change, and any change of a Job it controls, queues
 * it at once. A periodic resync (default 5 min, as informers resync) queues every CronJob.
 * Events are core/v1 Events from `cronjob-controller`; writes are made as the service account
 * `cronjob-controller`. The clock is injectable (`now`) for tests.
 *
 * Name in `--controllers`: `cronjob` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { buildPredicate } from '../../registry/predicate.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { cronJobs as cronJobsResource } from '../../resources/cronjobs/cronjobs.resource.js';
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import { events } from '../../resources/events/events.resource.js';
import { jobs as jobsResource } from '../../resources/jobs/jobs.resource.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import { controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { syncCronJobKey } from './reconcile.js';
import { registryCronJobClient } from './registry-client.js';
import type { CronJobRecorder } from './sync.js';
import { delayAfterUpdate } from './update.js';
import { controllerRefOf } from './utils.js';

/** Options of the CronJob controller. */
export interface CronJobControllerOptions {
  /** The clock, epoch ms (default Date.now); tests move it. */
  readonly now?: () => number;
  /** Zone of schedules without a time zone (default the process's, upstream's time.Local). */
  readonly localZone?: string;
  /** How often every CronJob is queued again (ms; default 5 min). */
  readonly resyncMs?: number;
}

const COMPONENT = 'cronjob-controller';
const keyOf = (obj: { metadata: { namespace?: string | null; name?: string | null } }) =>
  `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;

export class CronJobController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  /** The last seen version of each CronJob and Job, for update events' old object. */
  private readonly cronJobsSeen = new Map<string, CronJob>();
  private readonly jobsSeen = new Map<string, Job>();
  private readonly cronJobs: GenericStore<CronJob>;
  private readonly jobs: GenericStore<Job>;
  private readonly client: ReturnType<typeof registryCronJobClient>;
  private readonly recorderFor: (cj: CronJob) => CronJobRecorder;
  private readonly now: () => number;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: CronJobControllerOptions = {},
  ) {
    this.cronJobs = registry.of(cronJobsResource) as GenericStore<CronJob>;
    this.jobs = registry.of(jobsResource) as GenericStore<Job>;
    const user = controllerUser(COMPONENT);
    this.client = registryCronJobClient(this.cronJobs, this.jobs, user);
    const eventStore = registry.of(events) as GenericStore;
    const ref = { apiVersion: 'batch/v1', kind: 'CronJob' };
    this.recorderFor = (cj) => (type, reason, message) =>
      void recordLegacyEvent(eventStore, legacyEvent(cj, ref, COMPONENT, { type, reason, message }), user, logger);
    this.now = opts.now ?? Date.now;
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(this.cronJobs, signal, (ev) => this.onCronJob(ev.type, ev.object), this.logger);
    void watchLoop(this.jobs, signal, (ev) => this.onJob(ev.type, ev.object), this.logger);
    resyncLoop(signal, this.opts.resyncMs ?? 5 * 60_000, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  /** Queue `key` now, or after `afterMs` (upstream AddAfter: the earliest pending time wins). */
  private enqueue(key: string, afterMs = 0): void {
    this.queue.addAfter(key, afterMs);
  }

  /** Upstream's CronJob handlers and updateCronJob. */
  private onCronJob(type: string, cj: CronJob): void {
    const key = keyOf(cj);
    const old = this.cronJobsSeen.get(key);
    if (type === 'DELETED') this.cronJobsSeen.delete(key);
    else this.cronJobsSeen.set(key, cj);
    if (type !== 'MODIFIED' || !old) return this.enqueue(key);
    const delay = delayAfterUpdate(old, cj, this.now(), this.opts.localZone);
    if (delay !== 'unparseable') return this.enqueue(key, delay);
    this.logger.debug({ cronjob: key }, 'unparseable schedule for cronjob');
    this.recorderFor(cj)(
      'Warning',
      'UnParseableCronJobSchedule',
      `unparseable schedule for cronjob: ${cj.spec?.schedule}`,
    );
  }

  /** Upstream addJob / updateJob / deleteJob: queue the CronJob that controls the Job (old and new one). */
  private onJob(type: string, job: Job): void {
    const key = keyOf(job);
    const old = this.jobsSeen.get(key);
    if (type === 'DELETED') this.jobsSeen.delete(key);
    else this.jobsSeen.set(key, job);
    if (type === 'MODIFIED' && old?.metadata.resourceVersion === job.metadata.resourceVersion) return;
    for (const obj of old && type === 'MODIFIED' ? [old, job] : [job]) {
      const ref = controllerRefOf(obj);
      if (ref?.kind !== 'CronJob') continue;
      const owner = this.cronJobsSeen.get(`${obj.metadata.namespace ?? ''}/${ref.name}`);
      if (owner && owner.metadata.uid === ref.uid) this.enqueue(keyOf(owner));
    }
  }

  private async resync(): Promise<void> {
    try {
      const all = await this.cronJobs.list('', { predicate: buildPredicate(this.cronJobs.def) });
      for (const cj of all.items) this.enqueue(keyOf(cj));
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'cronjob controller resync failed');
    }
  }

  private async sync(key: string): Promise<void> {
    const slash = key.indexOf('/');
    let current: CronJob | undefined;
    const delay = await syncCronJobKey(key.slice(0, slash), key.slice(slash + 1), {
      client: this.client,
      listJobs: this.client.listJobs,
      getCached: async (ns, name) => (current = await this.client.getCached(ns, name)),
      record: (type, reason, message) => current && this.recorderFor(current)(type, reason, message),
      now: this.now,
      localZone: this.opts.localZone,
    });
    if (delay !== undefined) this.enqueue(key, delay);
  }
}

/**
 * Fakes for the CronJob sync tests, after upstream's injection.go fakeJobControl (one Job
 * answered to every get, created Jobs and deleted names recorded, CreateErr, Err for gets and
 * deletes) and fakeCJControl (the "API server's" CronJob, status updates recorded), and the
 * upstream test's times and CronJob (cronjob_controllerv2_test.go).
 */
import type { CronJob } from '../../resources/cronjobs/cronjobs.schema.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { CronJobClient, CronJobRecorder } from './sync.js';

export class FakeCronJobClient implements CronJobClient {
  /** Created Jobs, in order (upstream Jobs). */
  readonly created: Job[] = [];
  /** Deleted Job names (upstream DeleteJobName). */
  readonly deleted: string[] = [];
  /** Status writes (upstream Updates). */
  readonly updates: CronJob[] = [];

  constructor(
    /** The CronJob a fresh read answers. */
    private readonly cronJob: CronJob,
    /** The Job every get answers (upstream Job). */
    private readonly job?: Job,
    /** Create fails with this (upstream CreateErr). */
    private readonly createErr?: Error,
    /** Gets and deletes fail with this (upstream Err). */
    private readonly err?: Error,
  ) {}

  async getCronJob() {
    return structuredClone(this.cronJob);
  }
  async getJob(namespace: string, name: string) {
    if (this.err) throw this.err;
    if (!this.job) throw new Error(`no job ${namespace}/${name} in the fake`);
    return this.job;
  }
  async createJob(_namespace: string, job: Job) {
    if (this.createErr) throw this.createErr;
    this.created.push(job);
    return { ...job, metadata: { ...job.metadata, uid: 'test-uid' } };
  }
  async deleteJob(_namespace: string, name: string) {
    if (this.err) throw this.err;
    this.deleted.push(name);
  }
  async updateStatus(cj: CronJob) {
    this.updates.push(structuredClone(cj));
    return cj;
  }
}

/** A recorder keeping `"<type> <reason> <message>"` strings (upstream record.FakeRecorder). */
export function fakeRecorder(): { events: string[]; record: CronJobRecorder } {
  const events: string[] = [];
  return { events, record: (type, reason, message) => void events.push(`${type} ${reason} ${message}`) };
}

/** Epoch ms of an RFC 3339 time. */
export const at = (rfc3339: string) => Date.parse(rfc3339);
/** RFC 3339 (with milliseconds) of epoch ms. */
export const iso = (ms: number) => new Date(ms).toISOString();

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const topOfTheHour = at('2016-05-19T10:00:00Z');
export const justAfterThePriorHour = at('2016-05-19T09:01:00Z');
export const justBeforeThePriorHour = at('2016-05-19T08:59:00Z');
export const justAfterTheHour = at('2016-05-19T10:01:00Z');
export const justBeforeTheHour = at('2016-05-19T09:59:00Z');
export const justBeforeTheNextHour = at('2016-05-19T10:59:00Z');
export const weekAfterTheHour = at('2016-05-26T10:00:00Z');

/** The upstream test's CronJob (`mycronjob` in `snazzycats`, uid 1a2b3c). */
export function cronJob(): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'mycronjob', namespace: 'snazzycats', uid: '1a2b3c', creationTimestamp: iso(justBeforeTheHour) },
    spec: {
      schedule: '* * * * ?',
      concurrencyPolicy: 'Allow',
      jobTemplate: {
        metadata: { labels: { a: 'b' }, annotations: { x: 'y' } },
        spec: {
          parallelism: 1,
          completions: 1,
          template: { metadata: { labels: { foo: 'bar' } }, spec: { containers: [{ name: 'c', image: 'foo/bar' }] } },
        },
      },
    },
  } as CronJob;
}

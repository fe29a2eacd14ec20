/**
 * A fake JobClient for the sync tests, after upstream's controller.FakePodControl (records pod
 * templates created, pod names deleted and patches; CreateLimit; Err) and job_controller_test.go's
 * updateStatusHandler capture: pods and the job are held in memory, writes are recorded.
 */
import type { OwnerReference } from '../../api/object.js';
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { JobClient, JobEventType } from './client.js';
import { JOB_TRACKING_FINALIZER } from './job-util.js';

export class FakeJobClient implements JobClient {
  pods: Pod[] = [];
  job: Job | undefined;
  /** Pods created, in order (upstream Templates). */
  readonly created: Pod[] = [];
  /** Names of pods deleted (upstream DeletePodName). */
  readonly deleted: string[] = [];
  /** Pod patches: finalizer removals, adoptions, releases (upstream Patches). */
  readonly patches: string[] = [];
  /** Statuses written, in order. */
  readonly statuses: NonNullable<Job['status']>[] = [];
  readonly events: { type: JobEventType; reason: string; message: string }[] = [];
  createCalls = 0;
  /** At most this many creations succeed (upstream CreateLimit; 0 = no limit). */
  createLimit = 0;
  /** Every pod write fails with this after being recorded (upstream FakePodControl.Err). */
  err: Error | undefined;

  async getJob() {
    return this.job;
  }
  async getJobFresh() {
    if (!this.job) throw new Error('not found');
    return this.job;
  }
  async listPods(ns: string) {
    return this.pods.filter((p) => p.metadata.namespace === ns);
  }
  async createPod(_ns: string, pod: Pod) {
    this.createCalls++;
    if (this.createLimit && this.createCalls > this.createLimit)
      throw new Error(`not creating pod, limit ${this.createLimit} already reached (create call ${this.createCalls})`);
    this.created.push(pod);
    if (this.err) throw this.err;
  }
  async deletePod(_ns: string, name: string) {
    this.deleted.push(name);
    if (this.err) throw this.err;
  }
  async removeTrackingFinalizer(pod: Pod) {
    if (!(pod.metadata.finalizers ?? []).includes(JOB_TRACKING_FINALIZER)) return;
    this.patches.push(`rm-finalizer:${pod.metadata.name}`);
    if (this.err) throw this.err;
  }
  async adoptPod(pod: Pod, _ref: OwnerReference) {
    this.patches.push(`adopt:${pod.metadata.name}`);
    if (this.err) throw this.err;
  }
  async releasePod(pod: Pod) {
    this.patches.push(`release:${pod.metadata.name}`);
    if (this.err) throw this.err;
  }
  async updateStatus(job: Job) {
    this.statuses.push(structuredClone(job.status ?? {}));
    return job;
  }
  recordEvent(_job: Job, type: JobEventType, reason: string, message: string) {
    this.events.push({ type, reason, message });
  }

  /** The last status written, or the job's own when none was. */
  actual(): NonNullable<Job['status']> {
    return this.statuses[this.statuses.length - 1] ?? this.job?.status ?? {};
  }
}

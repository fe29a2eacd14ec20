/**
 * Test builders after upstream job_controller_test.go's newJob, buildPod() and
 * hollowPodsWithIndexPhase: small Jobs and Pods for the table tests.
 */
import type { Job } from '../../resources/jobs/jobs.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { COMPLETION_INDEX, INDEX_FAILURE_COUNT, JOB_TRACKING_FINALIZER } from './job-util.js';

/** Upstream's noIndex: a pod without the completion-index annotation. */
export const NO_INDEX = '-';

/** An index (or NO_INDEX) and a phase (upstream indexPhase). */
export type IndexPhase = readonly [string, string];

/** Pods with only an index annotation and a phase (upstream hollowPodsWithIndexPhase). */
export function hollowPods(descs: readonly IndexPhase[]): Pod[] {
  return descs.map(([index, phase], i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p${i}`,
      namespace: 'default',
      uid: `uid-${i}`,
      ...(index === NO_INDEX ? {} : { annotations: { [COMPLETION_INDEX]: index } }),
    },
    status: { phase },
  }));
}

/** The index and phase of each pod (upstream toIndexPhases). */
export function toIndexPhases(pods: readonly Pod[]): IndexPhase[] {
  return pods.map((p) => [p.metadata.annotations?.[COMPLETION_INDEX] ?? NO_INDEX, p.status?.phase ?? '']);
}

/** A fluent pod builder (upstream buildPod()). */
export class PodBuilder {
  readonly pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name: 'pod' }, status: {} };
  uid(uid: string): this {
    this.pod.metadata.uid = uid;
    this.pod.metadata.name = uid;
    return this;
  }
  index(ix: string): this {
    this.pod.metadata.annotations = { ...(this.pod.metadata.annotations ?? {}), [COMPLETION_INDEX]: ix };
    return this;
  }
  indexFailureCount(n: string): this {
    this.pod.metadata.annotations = { ...(this.pod.metadata.annotations ?? {}), [INDEX_FAILURE_COUNT]: n };
    return this;
  }
  phase(phase: string): this {
    this.pod.status = { ...(this.pod.status ?? {}), phase };
    return this;
  }
  status(status: NonNullable<Pod['status']>): this {
    this.pod.status = status;
    return this;
  }
  trackingFinalizer(): this {
    this.pod.metadata.finalizers = [...(this.pod.metadata.finalizers ?? []), JOB_TRACKING_FINALIZER];
    return this;
  }
  deletionTimestamp(at: number): this {
    this.pod.metadata.deletionTimestamp = new Date(at).toISOString();
    return this;
  }
}

/** upstream buildPod(). */
export const buildPod = () => new PodBuilder();

/**
 * A Job of `parallelism`, `completions` (-1: unset) and `backoffLimit` in mode `mode`, with the
 * generated selector labels (upstream newJob / newJobWithName).
 */
export function newJob(parallelism: number, completions: number, backoffLimit: number, mode = 'NonIndexed'): Job {
  const labels = { foo: 'bar' };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'foobar', namespace: 'default', uid: 'job-uid', resourceVersion: '1', generation: 1 },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'foo/bar' }] },
      },
      parallelism,
      ...(completions >= 0 ? { completions } : {}),
      backoffLimit,
      completionMode: mode,
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
    },
    status: {},
  } as Job;
}

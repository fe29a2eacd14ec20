/**
 * The life of a simulated pod's containers as a function of time: when each init container
 * runs, when the containers start, are started (startupProbe) and ready (readinessProbe), when
 * they exit and when the restart policy brings them back (upstream's kubelet: pod_workers,
 * kuberuntime's computePodActions and container restart back-off; prober's initialDelaySeconds).
 * Pure: every time is a millisecond timestamp; nothing here reads the clock.
 */
import { createHash } from 'node:crypto';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { EXIT_CODE_ANNOTATION, RUN_SECONDS_ANNOTATION, type ResolvedOptions } from './options.js';

type Spec = NonNullable<Pod['spec']>;
/** A container of the pod's spec (regular or init). */
export type Container = Spec['containers'][number];

/** How the pod's containers run: for how long (null: until deleted) and with which exit code. */
export interface RunPlan {
  readonly runMs: number | null;
  readonly exitCode: number;
  /** Whether an exit is followed by a restart (restartPolicy Always, or OnFailure with a failure). */
  readonly restarts: boolean;
}

/**
 * The plan of `pod`: the `sim.ck.io/run-seconds` and `sim.ck.io/exit-code` annotations, else
 * `finitePodRunMs` for restartPolicy Never/OnFailure pods and no end for Always pods.
 */
export function runPlan(pod: Pod, opts: ResolvedOptions): RunPlan {
  const annotations = pod.metadata.annotations ?? {};
  const seconds = Number(annotations[RUN_SECONDS_ANNOTATION]);
  const code = Number.parseInt(annotations[EXIT_CODE_ANNOTATION] ?? '0', 10);
  const exitCode = Number.isFinite(code) ? code : 0;
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const annotated = annotations[RUN_SECONDS_ANNOTATION] !== undefined && Number.isFinite(seconds) && seconds >= 0;
  const exiting = annotated || annotations[EXIT_CODE_ANNOTATION] !== undefined;
  const runMs = annotated ? seconds * 1000 : exiting ? 0 : policy === 'Always' ? null : opts.finitePodRunMs;
  return { runMs, exitCode, restarts: policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0) };
}

/** Where the containers' current run is at a moment. */
export type Cycle =
  | { readonly kind: 'running'; readonly start: number; readonly restartCount: number; readonly previous?: Ended }
  | { readonly kind: 'backoff'; readonly until: number; readonly restartCount: number; readonly previous: Ended }
  | { readonly kind: 'terminated'; readonly restartCount: number; readonly run: Ended; readonly previous?: Ended };

/** A finished run: [start, end) and its exit code. */
export interface Ended {
  readonly start: number;
  readonly end: number;
  readonly exitCode: number;
}

/**
 * Where the containers that first start at `start` are at `now` under `plan`, and the next
 * moment that changes (pushed onto `events`). Restarts wait `restartBackoffMs` doubled per
 * restart, up to `maxRestartBackoffMs`.
 */
export function cycleAt(start: number, plan: RunPlan, now: number, opts: ResolvedOptions, events: number[]): Cycle {
  let begin = start;
  let previous: Ended | undefined;
  for (let restartCount = 0; ; restartCount++) {
    if (plan.runMs === null || now < begin + plan.runMs) {
      if (plan.runMs !== null) events.push(begin + plan.runMs);
      return { kind: 'running', start: begin, restartCount, previous };
    }
    const run: Ended = { start: begin, end: begin + plan.runMs, exitCode: plan.exitCode };
    if (!plan.restarts) return { kind: 'terminated', restartCount, run, previous };
    const backoff = Math.max(1, Math.min(opts.restartBackoffMs * 2 ** restartCount, opts.maxRestartBackoffMs));
    if (now < run.end + backoff) {
      events.push(run.end + backoff);
      return { kind: 'backoff', until: run.end + backoff, restartCount, previous: run };
    }
    previous = run;
    begin = run.end + backoff;
  }
}

/** Delay after a container starts until its startupProbe first passes (0 without one). */
export function startupDelayMs(c: Container): number {
  return (c.startupProbe?.initialDelaySeconds ?? 0) * 1000;
}

/**
 * Delay after a container starts until it is ready: `overrideMs` (a pod's
 * `sim.ck.io/ready-delay-seconds`) or its readinessProbe's initialDelaySeconds, not before it
 * is started; Infinity when `never` (`sim.ck.io/never-ready`).
 */
export function readyDelayMs(c: Container, overrideMs?: number, never = false): number {
  if (never) return Number.POSITIVE_INFINITY;
  return Math.max(startupDelayMs(c), overrideMs ?? (c.readinessProbe?.initialDelaySeconds ?? 0) * 1000);
}

/** How long a failed pull shows `ErrImagePull` before the back-off (`ImagePullBackOff`) shows (ms). */
export const ERR_IMAGE_PULL_MS = 1000;

/**
 * The Waiting state of container `c` whose image cannot be pulled, first tried at `first`
 * (kubelet's image manager: a failed pull is `ErrImagePull`, then `ImagePullBackOff` until the
 * next try, `restartBackoffMs` doubled per try up to `maxRestartBackoffMs`, upstream's 10 s and
 * 5 min). The next change is pushed onto `events`.
 */
export function imagePullWaiting(
  c: Container,
  first: number,
  now: number,
  opts: ResolvedOptions,
  events: number[],
): { readonly reason: string; readonly message: string } {
  let attempt = first;
  for (let k = 0; ; k++) {
    const backoff = Math.max(1, Math.min(opts.restartBackoffMs * 2 ** k, opts.maxRestartBackoffMs));
    if (now < attempt + backoff) {
      const shown = attempt + Math.min(ERR_IMAGE_PULL_MS, backoff / 2);
      events.push(now < shown ? shown : attempt + backoff);
      if (now >= shown) return { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image ?? ''}"` };
      const ref = reportedImage(c.image ?? '');
      const err = `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
      return {
        reason: 'ErrImagePull',
        message: `Failed to pull image "${c.image ?? ''}": rpc error: code = NotFound desc = ${err}`,
      };
    }
    attempt += backoff;
  }
}

/**
 * The image as a container runtime reports it: a Docker Hub name made fully qualified
 * (`nginx` -> `docker.io/library/nginx:latest`), a missing tag `latest`.
 */
export function reportedImage(image: string): string {
  const parts = image.split('/');
  const first = parts[0] ?? '';
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let name = hasRegistry ? image : parts.length === 1 ? `docker.io/library/${image}` : `docker.io/${image}`;
  const last = name.slice(name.lastIndexOf('/') + 1);
  if (!name.includes('@') && !last.includes(':')) name += ':latest';
  return name;
}

/** The image id a runtime reports: `<repository>@sha256:<digest>` (the digest made up from the name). */
export function reportedImageId(image: string): string {
  const full = reportedImage(image);
  if (full.includes('@')) return full;
  const repo = full.slice(0, full.lastIndexOf(':'));
  return `${repo}@sha256:${createHash('sha256').update(full).digest('hex')}`;
}

/** A stable runtime id for run `restartCount` of container `name` of pod `uid`: `containerd://<64 hex>`. */
export function containerId(uid: string, name: string, restartCount: number): string {
  return `containerd://${createHash('sha256').update(`${uid}/${name}/${restartCount}`).digest('hex')}`;
}

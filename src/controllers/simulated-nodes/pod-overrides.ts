/**
 * A pod's own stage settings, from its annotations (options.ts lists them), over the simulated
 * nodes' options: how long it stays Pending, when its containers are ready (or never), which
 * of its images cannot be pulled, and how long its containers take to stop once it is deleted.
 * A malformed value (not a number, negative) is ignored: the option applies. Pure.
 */
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  IGNORE_SIGTERM_ANNOTATION,
  IMAGE_PULL_ERROR_ANNOTATION,
  NEVER_READY_ANNOTATION,
  READY_DELAY_ANNOTATION,
  START_DELAY_ANNOTATION,
  TERMINATION_SECONDS_ANNOTATION,
  type ResolvedOptions,
} from './options.js';

export interface PodOverrides {
  /** How long the pod stays Pending / ContainerCreating (ms). */
  readonly podStartMs: number;
  /** Delay after a container starts until it is ready (ms), in place of its readinessProbe's; undefined: the probe's. */
  readonly readyDelayMs?: number;
  /** The containers never become ready. */
  readonly neverReady: boolean;
  /** Whether container `name`'s image cannot be pulled. */
  readonly pullFails: (name: string) => boolean;
  /** How long containers take to stop once the pod is deleted (ms; null: until the grace period ends). */
  readonly terminationMs: number | null;
}

/** Milliseconds of a decimal seconds annotation, undefined when absent or malformed. */
function secondsMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

const isTrue = (value: string | undefined) => value?.trim().toLowerCase() === 'true';

/** The settings of `pod`: its annotations over `opts`. */
export function podOverrides(pod: Pod, opts: ResolvedOptions): PodOverrides {
  const a = pod.metadata.annotations ?? {};
  const pull = a[IMAGE_PULL_ERROR_ANNOTATION]?.trim();
  const names = new Set((pull ?? '').split(',').map((n) => n.trim()));
  const all = pull !== undefined && (isTrue(pull) || pull === '*');
  return {
    podStartMs: secondsMs(a[START_DELAY_ANNOTATION]) ?? opts.podStartMs,
    readyDelayMs: secondsMs(a[READY_DELAY_ANNOTATION]),
    neverReady: isTrue(a[NEVER_READY_ANNOTATION]),
    pullFails: (name) => all || (pull !== undefined && names.has(name)),
    terminationMs: isTrue(a[IGNORE_SIGTERM_ANNOTATION])
      ? null
      : (secondsMs(a[TERMINATION_SECONDS_ANNOTATION]) ?? opts.podTerminationMs),
  };
}

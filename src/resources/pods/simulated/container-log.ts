/**
 * The log of a container on a simulated node, read from the pod as a kubelet reads its
 * container's log file (upstream pkg/kubelet/kubelet_pods.go validateContainerLogStatus for the
 * run chosen and its errors, pkg/kubelet/kuberuntime/logs/logs.go ReadLogs for the options):
 * the lines the container wrote in its current run (or, with `previous`, its last terminated
 * run), filtered by `sinceSeconds`/`sinceTime`, cut to the last `tailLines`, prefixed with
 * RFC3339Nano timestamps and cut at `limitBytes`. Pure: the clock is a parameter.
 *
 * What a simulated container writes: the text of the annotation `sim.ck.io/log.<container>` or
 * `sim.ck.io/log` (one line per line, at the run's start) when there is one; else a start line,
 * a ready line once ready and the exit with its code.
 */
import { badRequest } from '../../../errors/api-error.js';
import type { Pod } from '../pods.schema.js';

/** Annotation whose text is the log of every container of the pod (tests). */
export const LOG_ANNOTATION = 'sim.ck.io/log';

type PodStatus = NonNullable<Pod['status']>;
type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];
type Terminated = NonNullable<NonNullable<ContainerStatus['state']>['terminated']>;

/** One line of a log: when it was written (ms) and its text (no newline). */
export interface LogLine {
  readonly ms: number;
  readonly text: string;
}

/** A run of a container: its id, the lines written so far, and whether it still runs. */
export interface ContainerRun {
  readonly containerID: string;
  readonly lines: readonly LogLine[];
  readonly running: boolean;
}

/** PodLogOptions as the kubelet applies them. */
export interface LogOptions {
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly follow: boolean;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  readonly sinceSeconds?: number;
  /** RFC 3339. */
  readonly sinceTime?: string;
}

const allStatuses = (pod: Pod) => [
  ...(pod.status?.containerStatuses ?? []),
  ...(pod.status?.initContainerStatuses ?? []),
  ...(pod.status?.ephemeralContainerStatuses ?? []),
];

/**
 * The run whose log is read: the last terminated one with `previous`, else the running one,
 * else the one that ended. Throws ApiError 400 with the kubelet's message: `previous terminated
 * container "c" in pod "p" not found`, `container "c" in pod "p" is waiting to start: <reason>`,
 * `container "c" in pod "p" is not available`, `... is terminated`.
 */
export function chooseRun(pod: Pod, container: string, previous: boolean, now: number): ContainerRun {
  const podName = pod.metadata.name;
  const status = allStatuses(pod).find((s) => s.name === container);
  if (!status)
    throw badRequest(`container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)} is not available`);
  const last = status.lastState?.terminated;
  const { waiting, running, terminated } = status.state ?? {};
  const where = `container ${JSON.stringify(container)} in pod ${JSON.stringify(podName)}`;
  if (previous) {
    if (!last?.containerID) throw badRequest(`previous terminated ${where} not found`);
    return endedRun(pod, container, last, status, now);
  }
  if (running) {
    const start = Date.parse(running.startedAt ?? '') || now;
    return {
      containerID: status.containerID ?? '',
      lines: runLines(pod, container, start, readyAt(pod, container, start, status.ready === true, now), undefined),
      running: true,
    };
  }
  if (terminated) {
    if (terminated.containerID) return endedRun(pod, container, terminated, status, now);
    if (last?.containerID) return endedRun(pod, container, last, status, now);
    throw badRequest(`${where} is terminated`);
  }
  if (last) {
    if (!last.containerID) throw badRequest(`${where} is terminated`);
    return endedRun(pod, container, last, status, now);
  }
  if (waiting) {
    if (waiting.reason === 'ErrImagePull') throw badRequest(`${where} is waiting to start: image can't be pulled`);
    if (waiting.reason === 'ImagePullBackOff')
      throw badRequest(`${where} is waiting to start: trying and failing to pull image`);
    throw badRequest(`${where} is waiting to start: ${waiting.reason ?? ''}`);
  }
  throw badRequest(`${where} is waiting to start - no logs yet`);
}

function endedRun(pod: Pod, container: string, t: Terminated, s: ContainerStatus, now: number): ContainerRun {
  const start = Date.parse(t.startedAt ?? '') || now;
  const end = Date.parse(t.finishedAt ?? '') || start;
  const ready = readyAt(pod, container, start, false, now);
  const exit = { ms: end, code: t.exitCode ?? 0 };
  return {
    containerID: t.containerID ?? s.containerID ?? '',
    lines: runLines(pod, container, start, ready !== undefined && ready <= end ? ready : undefined, exit),
    running: false,
  };
}

/** When a run that started at `start` became ready (its readinessProbe's initialDelaySeconds), if it has. */
function readyAt(pod: Pod, container: string, start: number, ready: boolean, now: number): number | undefined {
  const spec = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === container);
  const delay = Math.max(spec?.readinessProbe?.initialDelaySeconds ?? 0, spec?.startupProbe?.initialDelaySeconds ?? 0);
  const at = start + delay * 1000;
  return ready || at <= now ? at : undefined;
}

/** The lines of one run: the annotation's text, else the start, ready and exit lines. */
function runLines(
  pod: Pod,
  container: string,
  start: number,
  ready: number | undefined,
  exit: { ms: number; code: number } | undefined,
): LogLine[] {
  const annotations = pod.metadata.annotations ?? {};
  const text = annotations[`${LOG_ANNOTATION}.${container}`] ?? annotations[LOG_ANNOTATION];
  if (text !== undefined) {
    const lines = text.replace(/\n$/, '').split('\n');
    return text === '' ? [] : lines.map((t, i) => ({ ms: start + i, text: t }));
  }
  const spec = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((c) => c.name === container);
  const out: LogLine[] = [{ ms: start, text: `Starting ${container} (image ${spec?.image ?? ''})` }];
  if (ready !== undefined) out.push({ ms: Math.max(ready, start + 1), text: `${container} is ready` });
  if (exit) out.push({ ms: Math.max(exit.ms, start + 2), text: `${container} exited with code ${exit.code}` });
  return out;
}

/**
 * A time as Go's RFC3339Nano formats it (the kubelet's timestamps): UTC, the fraction without
 * trailing zeros, none when whole: `2026-11-28T18:40:00.12Z`.
 */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d{3})Z$/, (_m, frac: string) => (/^0+$/.test(frac) ? 'Z' : `.${frac.replace(/0+$/, '')}Z`));
}

/** The moment before which lines are left out (ms), if any: `sinceTime`, or `now - sinceSeconds`. */
export function sinceMs(opts: LogOptions, now: number): number | undefined {
  if (opts.sinceTime) return Date.parse(opts.sinceTime);
  if (opts.sinceSeconds !== undefined) return now - opts.sinceSeconds * 1000;
  return undefined;
}

/** The lines of `run` a read returns first: from `since` on, the last `tailLines` of them. */
export function selectLines(run: ContainerRun, opts: LogOptions, now: number): LogLine[] {
  const since = sinceMs(opts, now);
  let lines = [...run.lines];
  if (opts.tailLines !== undefined) lines = opts.tailLines === 0 ? [] : lines.slice(-opts.tailLines);
  if (since !== undefined) lines = lines.filter((l) => l.ms >= since);
  return lines;
}

/** A line as written to the client: with its timestamp when asked, and a newline. */
export function formatLine(line: LogLine, opts: Pick<LogOptions, 'timestamps'>): string {
  return opts.timestamps ? `${rfc3339Nano(line.ms)} ${line.text}\n` : `${line.text}\n`;
}

/**
 * Cut text to what `limitBytes` still allows (UTF-8 bytes; the kubelet's LimitWriter): the text
 * to write and the bytes left afterwards (undefined: no limit).
 */
export function limit(text: string, left: number | undefined): { text: string; left: number | undefined } {
  if (left === undefined) return { text, left };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= left) return { text, left: left - bytes.length };
  return { text: bytes.subarray(0, left).toString('utf8'), left: 0 };
}

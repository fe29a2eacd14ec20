/**
 * The status a kubelet would report for a pod on a simulated node at a moment (upstream
 * pkg/kubelet/kubelet_pods.go generateAPIPodStatus and convertToAPIContainerStatuses,
 * pkg/kubelet/status/generate.go for the conditions, getPhase for the phase): container
 * statuses Waiting (ContainerCreating, or PodInitializing while init containers run),
 * Running, Terminated (Completed or Error), CrashLoopBackOff between restarts; the conditions
 * PodReadyToStartContainers, Initialized, Ready, ContainersReady, PodScheduled in the
 * kubelet's order; hostIP(s), podIP(s) and startTime. Pure: times come from the caller.
 */
import { rfc3339 } from '../../api/object.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import {
  containerId,
  cycleAt,
  imagePullWaiting,
  readyDelayMs,
  reportedImage,
  reportedImageId,
  runPlan,
  startupDelayMs,
  type Container,
  type Cycle,
  type Ended,
} from './container-timeline.js';
import {
  containersReadyCondition,
  podInitializedCondition,
  podReadyCondition,
  type ConditionBody,
} from './conditions.js';
import type { ResolvedOptions } from './options.js';
import { podOverrides, type PodOverrides } from './pod-overrides.js';

export type PodStatus = NonNullable<Pod['status']>;
type ContainerStatus = NonNullable<PodStatus['containerStatuses']>[number];
type PodCondition = NonNullable<PodStatus['conditions']>[number];

/** What the node agent knows besides the pod: its node's IP, the pod's IP, when it took the pod up, and now. */
export interface AgentView {
  readonly hostIP: string;
  readonly podIP: string;
  /** When the agent first saw the pod (its startTime), ms. */
  readonly startMs: number;
  readonly nowMs: number;
}

/** A computed status and the next moment it changes by itself (undefined: only an event changes it). */
export interface SimulatedStatus {
  readonly status: PodStatus;
  readonly nextMs?: number;
}

/** One container's report plus when it became ready, or stopped being ready. */
interface Report {
  readonly status: ContainerStatus;
  readonly readySince?: number;
  readonly unreadySince: number;
}

const time = (ms: number) => rfc3339(new Date(ms));
/** Whole seconds as Go's time.Duration prints them: `10s`, `1m20s`, `5m0s`. */
const goDuration = (s: number) => (s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`);

function terminatedState(uid: string, name: string, restartCount: number, run: Ended) {
  return {
    terminated: {
      exitCode: run.exitCode,
      reason: run.exitCode === 0 ? 'Completed' : 'Error',
      startedAt: time(run.start),
      finishedAt: time(run.end),
      containerID: containerId(uid, name, restartCount),
    },
  };
}

/** The status of container `c` whose runs are at `cycle` (or waiting, `reason`, when undefined). */
function report(
  pod: Pod,
  c: Container,
  cycle: Cycle | undefined,
  waiting: string,
  now: number,
  events: number[],
  o: PodOverrides,
): Report {
  const uid = pod.metadata.uid ?? '';
  const base = { name: c.name, image: reportedImage(c.image ?? ''), imageID: '', lastState: {}, restartCount: 0 };
  if (!cycle)
    return {
      status: { ...base, state: { waiting: { reason: waiting } }, ready: false, started: false },
      unreadySince: 0,
    };
  const imageID = reportedImageId(c.image ?? '');
  const n = cycle.restartCount;
  const lastState = cycle.previous ? terminatedState(uid, c.name, n - 1, cycle.previous) : {};
  const common = { ...base, imageID, restartCount: n, lastState };
  switch (cycle.kind) {
    case 'running': {
      const startedAt = cycle.start + startupDelayMs(c);
      const readyAt = cycle.start + readyDelayMs(c, o.readyDelayMs, o.neverReady);
      for (const t of [startedAt, readyAt]) if (t > now) events.push(t);
      const state = { running: { startedAt: time(cycle.start) } };
      const status = { ...common, containerID: containerId(uid, c.name, n), state, started: now >= startedAt };
      const unreadySince = cycle.previous?.end ?? 0;
      return now >= readyAt
        ? { status: { ...status, ready: true }, readySince: readyAt, unreadySince }
        : { status: { ...status, ready: false }, unreadySince };
    }
    case 'backoff': {
      const seconds = Math.round((cycle.until - cycle.previous.end) / 1000);
      const message = `back-off ${goDuration(seconds)} restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${uid})`;
      const state = { waiting: { reason: 'CrashLoopBackOff', message } };
      const lastState = terminatedState(uid, c.name, n, cycle.previous);
      const status = { ...common, lastState, containerID: containerId(uid, c.name, n), state, ready: false };
      return { status: { ...status, started: false }, unreadySince: cycle.previous.end };
    }
    case 'terminated': {
      const state = terminatedState(uid, c.name, n, cycle.run);
      const status = { ...common, containerID: state.terminated.containerID, state, ready: false, started: false };
      return { status, unreadySince: cycle.run.end };
    }
  }
}

/** The status of container `c` whose image cannot be pulled, first tried at `first` (image-pull errors). */
function pullFailure(c: Container, first: number, now: number, opts: ResolvedOptions, events: number[]): Report {
  const waiting = imagePullWaiting(c, first, now, opts, events);
  const base = { name: c.name, image: reportedImage(c.image ?? ''), imageID: '', lastState: {}, restartCount: 0 };
  return { status: { ...base, state: { waiting }, ready: false, started: false }, unreadySince: first };
}

/** A sidecar still running when the pod's containers ended: stopped with them (exit code 0). */
function stopSidecar(pod: Pod, status: ContainerStatus, ended: Ended): ContainerStatus {
  const running = status.state?.running;
  if (!running) return status;
  const run = { start: Date.parse(running.startedAt ?? '') || ended.start, end: ended.end, exitCode: 0 };
  const state = terminatedState(pod.metadata.uid ?? '', status.name, status.restartCount ?? 0, run);
  return { ...status, ready: false, started: false, state };
}

/**
 * The status a kubelet reports for `pod` at `view.nowMs` (see the file comment), its
 * conditions merged into the pod's current ones ({@link mergeConditions}).
 */
export function simulatePodStatus(pod: Pod, view: AgentView, opts: ResolvedOptions): SimulatedStatus {
  const events: number[] = [];
  const { nowMs: now, startMs: start } = view;
  const spec = pod.spec ?? { containers: [] };
  const inits = spec.initContainers ?? [];
  const waiting = inits.length ? 'PodInitializing' : 'ContainerCreating';
  const o = podOverrides(pod, opts);
  const sandboxAt = start + o.podStartMs;
  if (now < sandboxAt) events.push(sandboxAt);
  const plan = runPlan(pod, opts);
  // Init containers, one after the other; a sidecar lets the next start once it is started.
  let t = sandboxAt;
  const sidecars: Report[] = [];
  const initReports: Report[] = [];
  const forever = { runMs: null, exitCode: 0, restarts: false };
  for (const c of inits) {
    if (now < t) {
      initReports.push(report(pod, c, undefined, 'PodInitializing', now, events, o));
      continue;
    }
    if (o.pullFails(c.name)) {
      // The pod goes no further than this init container.
      initReports.push(pullFailure(c, t, now, opts, events));
      t = Number.POSITIVE_INFINITY;
    } else if (c.restartPolicy === 'Always') {
      const r = report(pod, c, cycleAt(t, forever, now, opts, events), waiting, now, events, o);
      sidecars.push(r);
      initReports.push(r);
      t += startupDelayMs(c);
    } else {
      const run = { runMs: opts.initContainerRunMs, exitCode: 0, restarts: false };
      const r = report(pod, c, cycleAt(t, run, now, opts, events), waiting, now, events, o);
      // A regular init container is ready once it completed, not while it runs (convertToAPIContainerStatuses).
      initReports.push({ ...r, status: { ...r.status, ready: Boolean(r.status.state?.terminated) } });
      t += opts.initContainerRunMs;
    }
    if (now < t) events.push(t);
  }
  const mainStart = t;
  const cycle = now >= mainStart ? cycleAt(mainStart, plan, now, opts, events) : undefined;
  const mains = spec.containers.map((c) =>
    cycle && o.pullFails(c.name)
      ? pullFailure(c, mainStart, now, opts, events)
      : report(pod, c, cycle, waiting, now, events, o),
  );
  // A container still waiting for its image keeps the pod from ending (kubelet getPhase).
  const pulling = cycle ? spec.containers.filter((c) => o.pullFails(c.name)).length : 0;
  const ended = cycle?.kind === 'terminated' && !pulling ? cycle.run : undefined;
  const runs = cycle && pulling < spec.containers.length && cycle.kind !== 'terminated';
  const phase = ended ? (ended.exitCode === 0 ? 'Succeeded' : 'Failed') : runs ? 'Running' : 'Pending';
  const initStatuses = initReports.map((r) => (ended ? stopSidecar(pod, r.status, ended) : r.status));
  const conditions = podConditions(pod, {
    start,
    sandboxAt,
    mainStart,
    now,
    ended,
    phase,
    statuses: [...initStatuses, ...mains.map((r) => r.status)],
    readiness: [...sidecars, ...mains],
  });
  const status: PodStatus = {
    phase,
    conditions: mergeConditions(pod.status?.conditions ?? [], conditions),
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    ...(now >= sandboxAt && view.podIP ? { podIP: view.podIP, podIPs: [{ ip: view.podIP }] } : {}),
    startTime: time(start),
    ...(inits.length ? { initContainerStatuses: initStatuses } : {}),
    containerStatuses: mains.map((r) => r.status),
  };
  const future = events.filter((e) => e > now && Number.isFinite(e));
  return { status, nextMs: future.length ? Math.min(...future) : undefined };
}

interface ConditionInputs {
  readonly start: number;
  readonly sandboxAt: number;
  readonly mainStart: number;
  readonly now: number;
  readonly ended?: Ended;
  readonly phase: string;
  /** Every init container's and container's status. */
  readonly statuses: readonly ContainerStatus[];
  /** The sidecars' and containers' reports (when they became ready or unready). */
  readonly readiness: readonly Report[];
}

function timed(c: ConditionBody, since: number): PodCondition {
  return { ...c, lastProbeTime: null, lastTransitionTime: time(since) };
}

/**
 * The kubelet's conditions, in its order (kubelet_pods.go generateAPIPodStatus; their
 * status, reason and message from conditions.ts), with the moment each took its status.
 */
function podConditions(pod: Pod, i: ConditionInputs): PodCondition[] {
  const { spec } = pod;
  const sandbox = i.ended
    ? timed({ type: 'PodReadyToStartContainers', status: 'False' }, i.ended.end)
    : timed(
        { type: 'PodReadyToStartContainers', status: i.now >= i.sandboxAt ? 'True' : 'False' },
        i.now >= i.sandboxAt ? i.sandboxAt : i.start,
      );
  const initialized = podInitializedCondition(spec ?? undefined, i.statuses, i.phase);
  const started = i.now >= i.mainStart && (spec?.initContainers ?? []).length > 0;
  const containersReady = containersReadyCondition(spec ?? undefined, i.statuses, i.phase);
  const readySince = i.ended
    ? i.ended.end
    : containersReady.status === 'True'
      ? Math.max(i.start, ...i.readiness.map((r) => r.readySince ?? i.start))
      : Math.max(i.start, ...i.readiness.map((r) => r.unreadySince));
  const ready = podReadyCondition(spec ?? undefined, pod.status?.conditions ?? [], i.statuses, i.phase);
  const gated = ready.reason === 'ReadinessGatesNotReady';
  return [
    sandbox,
    timed(initialized, initialized.status === 'True' && started ? i.mainStart : i.start),
    timed(ready, gated ? i.now : readySince),
    timed(containersReady, readySince),
    timed({ type: 'PodScheduled', status: 'True' }, i.start),
  ];
}

/**
 * The pod's conditions after a kubelet status write (upstream status manager
 * updateStatusInternal): `computed` in order, each keeping the current lastTransitionTime
 * while its status is unchanged (PodScheduled kept as the scheduler wrote it); conditions the
 * kubelet does not own (DisruptionTarget, a readiness gate's) follow unchanged.
 */
export function mergeConditions(current: readonly PodCondition[], computed: readonly PodCondition[]): PodCondition[] {
  const owned = new Set(computed.map((c) => c.type));
  const merged = computed.map((c) => {
    const old = current.find((x) => x.type === c.type);
    if (!old || old.status !== c.status) return c;
    if (c.type === 'PodScheduled') return old;
    return old.lastTransitionTime ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
  });
  return [...merged, ...current.filter((c) => !owned.has(c.type))];
}

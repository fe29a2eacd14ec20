/**
 * The pod side of the simulated kubelets (upstream pkg/kubelet: syncPod, the status manager,
 * pod deletion): for each pod bound to a simulated node, write the status a kubelet would
 * report (pod-status.ts) through `pods/status` whenever it changes, waking at the next stage;
 * and remove a pod marked for deletion once its grace period has ended (a delete with grace 0
 * and the pod's uid as precondition, as the status manager does). Pods on other nodes are
 * left alone. Writes run as the node's user.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import { deleteObject } from '../../registry/deletion.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { WatchEvent } from '../../storage/types.js';
import { WorkQueue } from '../work-queue.js';
import { nodeUser } from './node-heartbeat.js';
import type { SimulatedNodeIdentity } from './node-status.js';
import type { ResolvedOptions } from './options.js';
import { PodIpAllocator } from './pod-ips.js';
import { podOverrides } from './pod-overrides.js';
import { simulatePodStatus, type PodStatus } from './pod-status.js';
import { StageRunner, type StageState } from './stage-runner.js';

/** JSON with sorted keys and without null or undefined members, to compare statuses. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([, x]) => x !== null && x !== undefined)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      );
    return v;
  });
}

/**
 * When the containers of a pod marked for deletion have stopped, in ms since the epoch: at its
 * deletionTimestamp (the grace period's end, SIGKILL) or `terminationMs` after the agent saw
 * the deletion (`seenMs`: a process ending on SIGTERM), whichever is first. A kubelet starts
 * stopping containers when it sees the deletion; deletionTimestamp has whole seconds only.
 */
export function terminationDue(deletionTimestamp: string, seenMs: number, terminationMs: number | null): number {
  const end = Date.parse(deletionTimestamp);
  return terminationMs === null ? end : Math.min(end, seenMs + terminationMs);
}

interface Tracked {
  readonly uid: string;
  readonly node: string;
  readonly startMs: number;
  timer?: NodeJS.Timeout;
  /** When the agent first saw the pod's deletionTimestamp (ms since the epoch). */
  deletionSeenMs?: number;
  /** Succeeded or Failed: nothing changes until the pod is deleted (skipped by the resync). */
  terminal?: boolean;
  /** With configured Stages: where the pod is in them. */
  stage?: StageState;
}

/**
 * Pods synced at once across the simulated nodes (a kubelet has a worker per pod; its status
 * manager writes one status at a time per node, so a few per node in all).
 */
const POD_WORKERS = 32;

export class PodAgent {
  private readonly nodes = new Map<string, { id: SimulatedNodeIdentity; ips: PodIpAllocator }>();
  private readonly tracked = new Map<string, Tracked>();
  private readonly queue: WorkQueue<string>;
  /** The configured kwok Stages, played in place of the built-in stages (undefined: none). */
  private readonly stages?: StageRunner;
  private stopped = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: ResolvedOptions,
    identities: readonly SimulatedNodeIdentity[],
  ) {
    for (const id of identities) this.nodes.set(id.name, { id, ips: new PodIpAllocator(id.podCIDR) });
    if (opts.stages.length) this.stages = new StageRunner(registry, logger, opts.stages);
    this.queue = new WorkQueue(
      (key) => key,
      (key) => this.sync(key),
      logger,
      POD_WORKERS,
    );
  }

  /** A watch event of a pod: track the simulated nodes' pods and sync them. */
  onEvent(ev: WatchEvent<Pod>): void {
    const pod = ev.object;
    const node = this.nodes.get(pod.spec?.nodeName ?? '');
    if (!node || this.stopped) return;
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const uid = pod.metadata.uid ?? '';
    const known = this.tracked.get(key);
    if (ev.type === 'DELETED') {
      if (known?.uid === uid) this.forget(key);
      return;
    }
    if (known && known.uid !== uid) this.forget(key);
    if (!this.tracked.has(key)) {
      // What the pod already reports (a previous leader's agent) is kept: start time and IP.
      const reported = Date.parse(pod.status?.startTime ?? '');
      this.tracked.set(key, { uid, node: node.id.name, startMs: Number.isNaN(reported) ? Date.now() : reported });
      if (pod.status?.podIP) node.ips.assign(uid, pod.status.podIP);
    }
    this.queue.add(key);
  }

  /** Re-examine every tracked pod (the periodic resync). */
  resync(): void {
    for (const [key, t] of this.tracked) if (!t.terminal) this.queue.add(key);
  }

  stop(): void {
    this.stopped = true;
    this.queue.stop();
    for (const t of this.tracked.values()) clearTimeout(t.timer);
  }

  private forget(key: string): void {
    const t = this.tracked.get(key);
    if (!t) return;
    clearTimeout(t.timer);
    this.nodes.get(t.node)?.ips.release(t.uid);
    this.tracked.delete(key);
  }

  private wake(key: string, atMs: number): void {
    const t = this.tracked.get(key);
    if (!t || this.stopped) return;
    clearTimeout(t.timer);
    t.timer = setTimeout(() => this.queue.add(key), Math.max(0, atMs - Date.now()) + 5);
    t.timer.unref();
  }

  private async sync(key: string): Promise<void> {
    const t = this.tracked.get(key);
    const node = t && this.nodes.get(t.node);
    if (!t || !node) return;
    const [namespace, name] = key.split('/') as [string, string];
    const store = this.registry.of(podsResource);
    let pod: Pod;
    try {
      // From the watch cache: the write below recomputes from the stored pod.
      pod = await store.get(namespace, name, '0');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    if (pod.metadata.uid !== t.uid) return;
    if (this.stages) {
      const at = { name: node.id.name, internalIP: node.id.internalIP, podIP: () => node.ips.assign(t.uid) };
      const step = await this.stages.step(pod, at, t.stage, Date.now());
      t.stage = step.state;
      if (step.wakeMs !== undefined) this.wake(key, step.wakeMs);
      return;
    }
    const deletion = pod.metadata.deletionTimestamp;
    if (deletion) {
      t.deletionSeenMs ??= Date.now();
      // A pod's own sim.ck.io/termination-seconds or ignore-sigterm over podTerminationMs.
      const due = terminationDue(deletion, t.deletionSeenMs, podOverrides(pod, this.opts).terminationMs);
      if (Date.now() >= due) await this.remove(pod);
      else this.wake(key, due);
      return;
    }
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      t.terminal = true;
      return;
    }
    const view = { hostIP: node.id.internalIP, podIP: node.ips.assign(t.uid), startMs: t.startMs };
    const { status, nextMs } = simulatePodStatus(pod, { ...view, nowMs: Date.now() }, this.opts);
    if (canonical({ ...pod.status, ...status }) !== canonical(pod.status ?? {})) {
      const sub = store.def.subresources.find((s) => s.name === 'status');
      await store.update(
        namespace,
        name,
        (cur) => {
          if (cur.metadata.uid !== t.uid) throw new ApiError(409, 'Conflict', `pod ${key} was replaced`);
          const next: PodStatus = simulatePodStatus(cur, { ...view, nowMs: Date.now() }, this.opts).status;
          return { ...cur, status: { ...cur.status, ...next } };
        },
        sub,
        { user: nodeUser(t.node) },
      );
    }
    if (nextMs !== undefined) this.wake(key, nextMs);
  }

  /** Confirm the deletion of `pod` (grace 0, its uid as precondition). */
  private async remove(pod: Pod): Promise<void> {
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    const uid = pod.metadata.uid;
    try {
      await deleteObject(this.registry.of(podsResource), namespace, name, {
        gracePeriodSeconds: 0,
        preconditions: { uid },
        user: nodeUser(pod.spec?.nodeName ?? ''),
      });
      this.logger.debug({ pod: `${namespace}/${name}` }, 'simulated node removed a terminated pod');
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      this.logger.warn({ pod: `${namespace}/${name}`, err: errorMessage(err) }, 'removing a pod failed');
      throw err;
    }
  }
}

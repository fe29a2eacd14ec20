/**
 * The scheduler (upstream kube-scheduler's default profile, pkg/scheduler: scheduler.go,
 * schedule_one.go, eventhandlers.go, backend/queue): a leader's controller placing pods that
 * have no spec.nodeName and whose schedulerName is `default-scheduler` (or empty). Pods wait in
 * an active queue (higher spec.priority first, then older); each decision (schedule-one.ts) binds
 * through the pods/binding subresource and reports a `Scheduled` event, or writes
 * `PodScheduled=False` reason `Unschedulable` with upstream's message through pods/status,
 * reports `FailedScheduling`, and parks the pod until a node is added or changes, an assigned
 * pod goes away, or it waited 5 minutes (upstream's unschedulable-pods flush). With the
 * `volumeBinding` option the VolumeBinding plugin runs too (volume-binding.ts, volume-prebind.ts):
 * a pod's claims are bound or provisioned on its node before the pod is bound, and a claim,
 * volume or StorageClass change also unparks pods.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { WriterInfo } from '../../registry/access.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { bindPod } from '../../resources/bindings/bind-pod.js';
import { namespaces } from '../../resources/namespaces/namespaces.resource.js';
import { nodes } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { buildPredicate } from '../../registry/predicate.js';
import { resyncLoop, watchLoop } from '../watch-loop.js';
import { schedulePod } from './schedule-one.js';
import { keyOf, SchedulerCache } from './scheduler-cache.js';
import { recordPodEvent, type PodEvent } from './scheduler-events.js';
import { markUnschedulable } from './pod-status.js';
import { followVolumes, VolumeCache } from './volume-cache.js';
import { assumePodVolumes, bindPodVolumes, revertPodVolumes, type VolumePlan } from './volume-prebind.js';

/** Upstream's default profile name. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** Who the scheduler writes as (upstream's kube-scheduler identity). */
export const SCHEDULER_USER: WriterInfo = Object.freeze({
  name: 'system:kube-scheduler',
  uid: '',
  groups: Object.freeze(['system:authenticated']),
});

/** Settings; every field has upstream's default. */
export interface SchedulerOptions {
  /** The profile served (pods naming another scheduler are left alone). */
  readonly schedulerName?: string;
  /** Random numbers in [0, 1) for tie-breaking (tests pass a fixed one). */
  readonly random?: () => number;
  /** How often parked pods are checked (upstream 30 s). */
  readonly flushIntervalMs?: number;
  /** How long a pod stays parked before it is tried again anyway (upstream 5 min). */
  readonly maxUnschedulableMs?: number;
  /**
   * Whether another scheduler decides now (`--scheduler=auto`: a kube-scheduler holds its
   * Lease, see other-scheduler.ts); while it answers true, no pod is decided and it is asked
   * again every `standDownRecheckMs` (2 s). Errors count as false.
   */
  readonly standDown?: () => Promise<boolean>;
  readonly standDownRecheckMs?: number;
  /**
   * Whether the VolumeBinding plugin runs (claims must exist and be bound or bindable; default
   * false until the PV controller and a provisioner run with the scheduler: without them a pod
   * with a claim would never be scheduled).
   */
  readonly volumeBinding?: boolean;
  /** How long a pod's binding waits for its volumes to be bound (upstream bindTimeoutSeconds 600 s). */
  readonly volumeBindTimeoutMs?: number;
  /** How often that wait checks the claims (upstream 1 s). */
  readonly volumeBindPollMs?: number;
}

/** What decides whether a parked pod changed (upstream isPodUpdated ignores status and metadata bookkeeping). */
const podFingerprint = (pod: Pod) => JSON.stringify([pod.metadata.labels, pod.metadata.annotations, pod.spec]);
/** What of a node can make a pod fit (labels, spec, allocatable). */
const nodeFingerprint = (node: Node) => JSON.stringify([node.metadata.labels, node.spec, node.status?.allocatable]);

export class Scheduler {
  private readonly abort = new AbortController();
  private readonly cache = new SchedulerCache();
  private readonly volumes = new VolumeCache();
  private readonly active = new Map<string, Pod>();
  private readonly parked = new Map<string, { pod: Pod; since: number; fingerprint: string }>();
  private readonly lastFailure = new Map<string, string>();
  private readonly nodePrints = new Map<string, string>();
  private inflight = '';
  /** Set when something that may make parked pods fit happened during the current attempt (upstream moveRequestCycle). */
  private moveRequested = false;
  private running = false;
  private ready = false;
  private standingDownNow = false;
  private standDownCheckedUntil = 0;
  private recheck: NodeJS.Timeout | undefined;
  private readonly name: string;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: SchedulerOptions = {},
  ) {
    this.name = opts.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  }

  /** Load nodes, namespaces and pods, then follow their watches and start deciding. */
  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
    clearTimeout(this.recheck);
    this.active.clear();
    this.parked.clear();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    try {
      const nodeStore = this.registry.of(nodes);
      const nsStore = this.registry.of(namespaces);
      const podStore = this.registry.of(podsResource);
      const all = { predicate: buildPredicate(podStore.def), resourceVersion: '0' };
      for (const n of (await nodeStore.list('', { ...all, predicate: buildPredicate(nodeStore.def) })).items)
        this.onNode(n);
      for (const ns of (await nsStore.list('', { ...all, predicate: buildPredicate(nsStore.def) })).items)
        this.cache.setNamespace(ns);
      for (const p of (await podStore.list('', all)).items) this.onPod(p, false);
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'scheduler initial list failed; following the watches');
    }
    if (signal.aborted) return;
    void watchLoop(
      this.registry.of(nodes),
      signal,
      (ev) => {
        if (ev.type === 'DELETED') {
          this.cache.removeNode(ev.object.metadata.name ?? '');
          this.nodePrints.delete(ev.object.metadata.name ?? '');
        } else this.onNode(ev.object);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(namespaces),
      signal,
      (ev) => {
        if (ev.type === 'DELETED') this.cache.removeNamespace(ev.object.metadata.name ?? '');
        else this.cache.setNamespace(ev.object);
      },
      this.logger,
    );
    if (this.opts.volumeBinding)
      followVolumes(this.registry, this.volumes, signal, this.logger, () => this.unparkAll());
    void watchLoop(
      this.registry.of(podsResource),
      signal,
      (ev) => this.onPod(ev.object, ev.type === 'DELETED'),
      this.logger,
    );
    resyncLoop(signal, this.opts.flushIntervalMs ?? 30_000, async () => this.flushParked());
    this.ready = true;
    this.kick();
  }

  private onNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const print = nodeFingerprint(node);
    const changed = this.nodePrints.get(name) !== print;
    this.nodePrints.set(name, print);
    this.cache.setNode(node);
    if (changed) this.unparkAll();
  }

  private onPod(pod: Pod, deleted: boolean): void {
    const key = keyOf(pod);
    if (deleted) {
      this.active.delete(key);
      this.parked.delete(key);
      this.lastFailure.delete(key);
      if (this.cache.removePod(key)) this.unparkAll();
      return;
    }
    if (this.cache.setPod(pod)) this.unparkAll();
    if (pod.spec?.nodeName || this.cache.isAssumed(pod)) {
      this.active.delete(key);
      this.parked.delete(key);
      return;
    }
    if (!this.responsibleFor(pod) || key === this.inflight) return;
    const parked = this.parked.get(key);
    if (parked && parked.fingerprint === podFingerprint(pod)) {
      parked.pod = pod;
      return;
    }
    this.parked.delete(key);
    this.active.set(key, pod);
    this.kick();
  }

  /** Upstream's responsibleForPod and PreEnqueue: ours by name, not being deleted, not gated. */
  private responsibleFor(pod: Pod): boolean {
    const name = pod.spec?.schedulerName || DEFAULT_SCHEDULER_NAME;
    return (
      name === this.name &&
      !pod.metadata.deletionTimestamp &&
      !(pod.spec?.schedulingGates ?? []).length &&
      pod.status?.phase !== 'Succeeded' &&
      pod.status?.phase !== 'Failed'
    );
  }

  private unparkAll(): void {
    this.moveRequested = true;
    for (const [key, { pod }] of this.parked) this.active.set(key, pod);
    this.parked.clear();
    this.kick();
  }

  private async flushParked(): Promise<void> {
    const limit = Date.now() - (this.opts.maxUnschedulableMs ?? 300_000);
    for (const [key, entry] of this.parked)
      if (entry.since <= limit) {
        this.parked.delete(key);
        this.active.set(key, entry.pod);
      }
    this.kick();
  }

  /** The next pod: highest priority, then oldest (upstream PrioritySort). */
  private next(): Pod | undefined {
    let best: Pod | undefined;
    for (const pod of this.active.values()) {
      if (!best) best = pod;
      const a = pod.spec?.priority ?? 0;
      const b = best.spec?.priority ?? 0;
      if (a > b || (a === b && (pod.metadata.creationTimestamp ?? '') < (best.metadata.creationTimestamp ?? '')))
        best = pod;
    }
    return best;
  }

  private kick(): void {
    if (this.running || !this.ready || this.abort.signal.aborted) return;
    this.running = true;
    void (async () => {
      try {
        if (this.active.size && (await this.standingDown())) {
          // One recheck pending at a time, however many pods arrive meanwhile.
          this.recheck ??= setTimeout(() => {
            this.recheck = undefined;
            this.kick();
          }, this.opts.standDownRecheckMs ?? 2000).unref();
          return;
        }
        for (let pod = this.next(); pod && !this.abort.signal.aborted; pod = this.next()) {
          const key = keyOf(pod);
          this.active.delete(key);
          this.inflight = key;
          this.moveRequested = false;
          try {
            await this.scheduleOne(pod);
          } catch (err) {
            this.logger.warn({ pod: key, err: errorMessage(err) }, 'scheduling attempt failed; retrying');
            setTimeout(() => this.onPod(pod, false), 1000).unref();
          } finally {
            this.inflight = '';
          }
        }
      } finally {
        this.running = false;
      }
    })();
  }

  /** Whether `standDown` says another scheduler decides (asked at most once per recheck interval). */
  private async standingDown(): Promise<boolean> {
    if (!this.opts.standDown) return false;
    const now = Date.now();
    if (now < this.standDownCheckedUntil) return this.standingDownNow;
    this.standingDownNow = await this.opts.standDown().catch(() => false);
    this.standDownCheckedUntil = now + (this.opts.standDownRecheckMs ?? 2000);
    if (this.standingDownNow) this.logger.debug('another kube-scheduler holds its lease: not scheduling');
    return this.standingDownNow;
  }

  private async scheduleOne(pod: Pod): Promise<void> {
    const view = this.opts.volumeBinding ? { ...this.cache.view(), volumes: this.volumes } : this.cache.view();
    const result = schedulePod(pod, view, this.opts.random);
    if (result.kind === 'scheduled') {
      // Upstream's binding cycle runs on its own (a goroutine): the next decision need not
      // wait for this pod's write. The pod is assumed on the node until its watch event comes,
      // and the volumes chosen for it are assumed too (Reserve).
      this.cache.setPod(pod, result.node);
      const node = view.nodes.find((n) => n.node.metadata.name === result.node)?.node;
      const plan = node && view.volumes ? assumePodVolumes(pod, node, this.volumes) : undefined;
      this.bind(pod, result.node, plan).catch((err: unknown) => {
        this.logger.warn({ pod: keyOf(pod), err: errorMessage(err) }, 'binding failed; retrying');
        setTimeout(() => this.onPod(pod, false), 1000).unref();
      });
      return;
    }
    // A node or pod change seen while deciding may make it fit: try again at once.
    if (this.moveRequested) this.active.set(keyOf(pod), pod);
    else this.parked.set(keyOf(pod), { pod, since: Date.now(), fingerprint: podFingerprint(pod) });
    this.logger.debug({ pod: keyOf(pod), message: result.message }, 'pod is unschedulable');
    await markUnschedulable(this.registry, pod, result.message, SCHEDULER_USER);
    if (this.lastFailure.get(keyOf(pod)) !== result.message) {
      this.lastFailure.set(keyOf(pod), result.message);
      await this.event(pod, {
        type: 'Warning',
        reason: 'FailedScheduling',
        action: 'Scheduling',
        note: result.message,
      });
    }
  }

  /**
   * Write the pod's volume plan and wait for its claims (VolumeBinding PreBind), then POST the
   * Binding of `pod`, assumed on `node` (upstream bind with the DefaultBinder); on failure the
   * assumptions are forgotten, a failed PreBind reported as upstream's FailedScheduling.
   */
  private async bind(pod: Pod, node: string, plan?: VolumePlan): Promise<void> {
    if (plan) {
      try {
        await bindPodVolumes(this.registry, this.volumes, plan, SCHEDULER_USER, {
          timeoutMs: this.opts.volumeBindTimeoutMs,
          pollMs: this.opts.volumeBindPollMs,
          signal: this.abort.signal,
        });
      } catch (err) {
        revertPodVolumes(plan, this.volumes);
        this.cache.forget(pod);
        if (this.abort.signal.aborted) return;
        const note = `running PreBind plugin "VolumeBinding": ${errorMessage(err)}`;
        await this.event(pod, { type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', note });
        throw err;
      }
    }
    try {
      await bindPod(this.registry.of(podsResource), pod.metadata.namespace ?? '', {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
        target: { apiVersion: 'v1', kind: 'Node', name: node },
      });
    } catch (err) {
      this.cache.forget(pod);
      // Already bound, being deleted or gone: the watch tells the rest.
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
    this.lastFailure.delete(keyOf(pod));
    const note = `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node}`;
    await this.event(pod, { type: 'Normal', reason: 'Scheduled', action: 'Binding', note });
  }

  private event(pod: Pod, event: PodEvent): Promise<void> {
    return recordPodEvent(this.registry, this.logger, SCHEDULER_USER, this.name, pod, event);
  }
}

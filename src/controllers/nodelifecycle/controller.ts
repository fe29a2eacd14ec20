/**
 * The node lifecycle controller (upstream 1.33 pkg/controller/nodelifecycle; kube-controller-
 * manager `--controllers` name `node-lifecycle`, on by default upstream): every
 * `nodeMonitorPeriodMs` it checks each Node's heartbeats and acts on them (lifecycle.ts); every
 * 100 ms it adds the queued NoExecute taints at each zone's rate; on each Node change it keeps
 * the NoSchedule condition taints and `node.kubernetes.io/unschedulable` (TaintNodesByCondition,
 * taints.ts) and the beta OS/arch labels (node-labels.ts) right; a pod bound to a node that is
 * not Ready is marked NotReady. Caches of Nodes, node Leases and Pods come from watches. Writes
 * go through the API as `system:serviceaccount:kube-system:node-controller`; Events from
 * component `node-controller`.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { ApiError, conflict } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { events as eventsResource } from '../../resources/events/events.resource.js';
import { leases as leasesResource } from '../../resources/leases/leases.resource.js';
import type { Lease } from '../../resources/leases/leases.schema.js';
import { nodes as nodesResource } from '../../resources/nodes/nodes.resource.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import { pods as podsResource } from '../../resources/pods/pods.resource.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { CONTROLLER_FIELD_MANAGER, controllerUser } from '../controller-user.js';
import { legacyEvent, recordLegacyEvent } from '../events.js';
import { PodsByNode } from '../tainteviction/pods-by-node.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import { NodeLifecycle, type LifecycleClient, type LifecycleSettings } from './lifecycle.js';
import { labelsToReconcile } from './node-labels.js';
import { noScheduleTaintingPass } from './taints.js';

/** The controller's name under `--controllers`. */
export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';

/** The service account and Event component of the controller (upstream's). */
const ACCOUNT = 'node-controller';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** How often queued NoExecute taints are tried (upstream scheduler.NodeEvictionPeriod). */
const NODE_EVICTION_PERIOD_MS = 100;

/** Settings; every one defaults to upstream's flag default. */
export interface NodeLifecycleOptions extends Partial<LifecycleSettings> {
  /** --node-monitor-period (default 5 s). */
  readonly nodeMonitorPeriodMs?: number;
}

/** The options with upstream's defaults (--node-monitor-grace-period 50 s since 1.32). */
export function lifecycleSettings(opts: NodeLifecycleOptions): LifecycleSettings & { nodeMonitorPeriodMs: number } {
  return {
    nodeMonitorPeriodMs: opts.nodeMonitorPeriodMs ?? 5_000,
    nodeMonitorGracePeriodMs: opts.nodeMonitorGracePeriodMs ?? 50_000,
    nodeStartupGracePeriodMs: opts.nodeStartupGracePeriodMs ?? 60_000,
    evictionLimiterQps: opts.evictionLimiterQps ?? 0.1,
    secondaryEvictionLimiterQps: opts.secondaryEvictionLimiterQps ?? 0.01,
    largeClusterThreshold: opts.largeClusterThreshold ?? 50,
    unhealthyZoneThreshold: opts.unhealthyZoneThreshold ?? 0.55,
  };
}

const notFound = (err: unknown) => err instanceof ApiError && err.code === 404;

/** The controller (a leader's controller: `start()`/`stop()`); see the file's comment. */
export class NodeLifecycleController {
  private readonly abort = new AbortController();
  private readonly nodes = new Map<string, Node>();
  private readonly leases = new Map<string, Lease>();
  private readonly pods = new PodsByNode();
  private readonly nodeStore: GenericStore<Node>;
  private readonly podStore: GenericStore<Pod>;
  private readonly nodeQueue: WorkQueue<string>;
  private readonly user = controllerUser(ACCOUNT);
  private readonly settings: ReturnType<typeof lifecycleSettings>;
  readonly lifecycle: NodeLifecycle;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    opts: NodeLifecycleOptions = {},
  ) {
    this.settings = lifecycleSettings(opts);
    this.nodeStore = registry.of(nodesResource) as GenericStore<Node>;
    this.podStore = registry.of(podsResource) as GenericStore<Pod>;
    this.lifecycle = new NodeLifecycle(this.client(), this.settings);
    this.nodeQueue = new WorkQueue(
      (k) => k,
      (k) => this.nodeProcessingPass(k),
      logger,
      8,
    );
  }

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.nodeStore,
      signal,
      (ev) => {
        const name = ev.object.metadata.name ?? '';
        if (ev.type === 'DELETED') this.nodes.delete(name);
        else {
          this.nodes.set(name, ev.object);
          this.nodeQueue.add(name);
        }
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(leasesResource) as GenericStore<Lease>,
      signal,
      (ev) => {
        if (ev.object.metadata.namespace !== NODE_LEASE_NAMESPACE) return;
        if (ev.type === 'DELETED') this.leases.delete(ev.object.metadata.name ?? '');
        else this.leases.set(ev.object.metadata.name ?? '', ev.object);
      },
      this.logger,
    );
    void watchLoop(
      this.podStore,
      signal,
      (ev) => {
        const deleted = ev.type === 'DELETED';
        const prev = this.pods.apply(ev.object, deleted);
        if (!deleted)
          this.lifecycle.podUpdated(prev, ev.object).catch((err) => this.warn('marking a pod not ready failed', err));
      },
      this.logger,
    );
    this.every(this.settings.nodeMonitorPeriodMs, () => this.lifecycle.monitorNodeHealth(), 'monitoring node health');
    this.every(NODE_EVICTION_PERIOD_MS, () => this.lifecycle.doNoExecuteTaintingPass(), 'NoExecute tainting');
  }

  stop(): void {
    this.abort.abort();
    this.nodeQueue.stop();
  }

  /** Run `work` every `ms`, never two at once, until stopped. */
  private every(ms: number, work: () => Promise<void>, what: string): void {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      work()
        .catch((err) => this.warn(`${what} failed`, err))
        .finally(() => (running = false));
    }, ms);
    this.abort.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }

  private warn(msg: string, err: unknown): void {
    this.logger.warn({ controller: NODE_LIFECYCLE_CONTROLLER, err: errorMessage(err) }, msg);
  }

  /** The NoSchedule taints and the labels of one node (upstream doNodeProcessingPassWorker). */
  private async nodeProcessingPass(name: string): Promise<void> {
    const node = this.nodes.get(name);
    if (!node) return;
    const write = { user: this.user, fieldManager: CONTROLLER_FIELD_MANAGER };
    if (noScheduleTaintingPass(node, new Date()))
      await this.nodeStore.update(
        '',
        name,
        (cur) => {
          const taints = noScheduleTaintingPass(cur, new Date());
          return taints ? { ...cur, spec: { ...cur.spec, taints } } : cur;
        },
        undefined,
        write,
      );
    if (Object.keys(labelsToReconcile(node.metadata.labels)).length)
      await this.nodeStore.update(
        '',
        name,
        (cur) => ({
          ...cur,
          metadata: { ...cur.metadata, labels: { ...cur.metadata.labels, ...labelsToReconcile(cur.metadata.labels) } },
        }),
        undefined,
        write,
      );
  }

  private client(): LifecycleClient {
    const write = { user: this.user, fieldManager: CONTROLLER_FIELD_MANAGER };
    const nodeStatus = () => this.nodeStore.def.subresources.find((s) => s.name === 'status');
    const podStatus = () => this.podStore.def.subresources.find((s) => s.name === 'status');
    const record = (obj: Node | Pod, kind: string, type: 'Normal' | 'Warning', reason: string, message: string) => {
      const namespace = obj.metadata.namespace || 'default';
      const ev = legacyEvent(
        { ...obj, metadata: { ...obj.metadata, namespace } },
        { apiVersion: 'v1', kind },
        ACCOUNT,
        {
          type,
          reason,
          message,
        },
      );
      const involved = { ...(ev.involvedObject as object), namespace: obj.metadata.namespace ?? '' };
      void recordLegacyEvent(
        this.registry.of(eventsResource),
        { ...ev, involvedObject: involved },
        this.user,
        this.logger,
      );
    };
    return {
      listNodes: () => [...this.nodes.values()],
      getNode: (name) => this.nodes.get(name),
      getNodeFresh: async (name) => {
        try {
          return await this.nodeStore.get('', name);
        } catch (err) {
          if (notFound(err)) return undefined;
          throw err;
        }
      },
      getLease: (name) => this.leases.get(name),
      podsOnNode: (name) => this.pods.on(name),
      writeNodeStatus: async (node, status) => {
        await this.nodeStore.update(
          '',
          node.metadata.name ?? '',
          (cur) => {
            // Upstream's UpdateStatus carries the node's resourceVersion: a heartbeat written
            // meanwhile makes this a conflict, and the node is checked again.
            if (cur.metadata.resourceVersion !== node.metadata.resourceVersion)
              throw conflict('nodes', node.metadata.name ?? '', 'the node changed since it was checked');
            return { ...cur, status };
          },
          nodeStatus(),
          write,
        );
      },
      updateNodeTaints: async (node, change) => {
        await this.nodeStore.update(
          '',
          node.metadata.name ?? '',
          (cur) => {
            const taints = change(cur);
            if (!taints) return cur;
            const { taints: _old, ...spec } = cur.spec ?? {};
            return { ...cur, spec: taints.length ? { ...spec, taints } : spec };
          },
          undefined,
          write,
        );
      },
      nodeEvent: (node, reason, message) => record(node, 'Node', 'Normal', reason, message),
      writePodStatus: async (pod, status) => {
        await this.podStore.update(
          pod.metadata.namespace ?? '',
          pod.metadata.name ?? '',
          (cur) => {
            if (cur.metadata.uid !== pod.metadata.uid)
              throw conflict('pods', pod.metadata.name ?? '', 'the pod was replaced');
            return { ...cur, status: { ...cur.status, conditions: status.conditions } };
          },
          podStatus(),
          write,
        );
      },
      podNotReadyEvent: (pod) => record(pod, 'Pod', 'Warning', 'NodeNotReady', 'Node is not ready'),
    };
  }
}

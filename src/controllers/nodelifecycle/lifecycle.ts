/**
 * The node lifecycle logic (upstream 1.33 pkg/controller/nodelifecycle/
 * node_lifecycle_controller.go Controller: monitorNodeHealth, processTaintBaseEviction,
 * doNoExecuteTaintingPass, handleDisruption, markNodeForTainting, markNodeAsReachable,
 * processPod), over a small client so it can be tested without a server. Each monitor pass
 * checks every node's heartbeats (node-health.ts), writes Unknown conditions when they stopped,
 * queues not-Ready nodes per zone for the NoExecute taint (`node.kubernetes.io/not-ready` for
 * Ready False, `node.kubernetes.io/unreachable` for Unknown; swapped at once when the other is
 * on), which the tainting pass adds at the zone's rate; removes both when the node is Ready
 * again; marks the pods of a node turning not-Ready NotReady; and sets each zone's rate from its
 * state (zones.ts), stopping all tainting when every zone is fully disrupted.
 */
import type { Lease } from '../../resources/leases/leases.schema.js';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { markPodsNotReady, type MarkPodsClient } from './mark-pods.js';
import { checkNodeHealth, type GracePeriods, type NodeCondition, type NodeHealth } from './node-health.js';
import { NOT_READY_TAINT, nodeCondition, swapTaints, taintExists, UNREACHABLE_TAINT, type Taint } from './taints.js';
import {
  computeZoneState,
  RateLimitedTimedQueue,
  zoneKey,
  zoneRate,
  type EvictionSettings,
  type ZoneState,
} from './zones.js';

/** What the lifecycle logic reads (the caches) and writes (the API). */
export interface LifecycleClient extends MarkPodsClient {
  listNodes(): Node[];
  /** A node from the cache. */
  getNode(name: string): Node | undefined;
  /** A fresh read of a node (retrying a failed status write); undefined when it is gone. */
  getNodeFresh(name: string): Promise<Node | undefined>;
  /** The node's Lease in kube-node-lease, from the cache. */
  getLease(name: string): Lease | undefined;
  podsOnNode(name: string): Pod[];
  writeNodeStatus(node: Node, status: NonNullable<Node['status']>): Promise<void>;
  /**
   * Change the node's taints: `change` gets the current node (a fresh read when the cached one
   * is stale) and answers its new taints, or undefined to leave them.
   */
  updateNodeTaints(node: Node, change: (cur: Node) => Taint[] | undefined): Promise<void>;
  /** A Normal Event about a node (`RegisteredNode`, `RemovingNode`, `NodeNotReady`). */
  nodeEvent(node: Node, reason: string, message: string): void;
}

/** The lifecycle settings: grace periods (ms) and eviction settings. */
export type LifecycleSettings = GracePeriods & EvictionSettings;

/** Label keeping a node out of the zone disruption checks (upstream labelNodeDisruptionExclusion). */
export const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

/** How often a failed health update is retried in one pass (upstream NodeHealthUpdateRetry). */
const HEALTH_UPDATE_RETRIES = 5;

/** The lifecycle state (node health, zones, their tainting queues) and passes; `now` is the clock in ms. */
export class NodeLifecycle {
  readonly health = new Map<string, NodeHealth>();
  readonly zoneStates = new Map<string, ZoneState>();
  readonly zoneTainters = new Map<string, RateLimitedTimedQueue>();
  private readonly known = new Map<string, Node>();
  private readonly nodesToRetry = new Set<string>();

  constructor(
    private readonly client: LifecycleClient,
    private readonly settings: LifecycleSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** One pass over every node (upstream monitorNodeHealth). */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.client.listNodes();
    const names = new Set(nodes.map((n) => n.metadata.name ?? ''));
    for (const node of nodes) {
      const name = node.metadata.name ?? '';
      if (this.known.has(name)) {
        this.addZone(node);
        continue;
      }
      this.client.nodeEvent(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
      this.known.set(name, node);
      this.addZone(node);
      await this.markNodeAsReachable(node).catch(() => undefined);
    }
    for (const [name, node] of this.known)
      if (!names.has(name)) {
        this.client.nodeEvent(node, 'RemovingNode', `Removing Node ${name} from Controller`);
        this.known.delete(name);
      }
    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    await Promise.all(nodes.map((node) => this.updateNode(node, zoneConditions)));
    await this.handleDisruption(zoneConditions, nodes);
  }

  /** Taint the queued nodes NoExecute at each zone's rate (upstream doNoExecuteTaintingPass). */
  async doNoExecuteTaintingPass(): Promise<void> {
    for (const queue of [...this.zoneTainters.values()])
      await queue.try(async ({ value }) => {
        const node = this.client.getNode(value);
        if (!node) return true;
        const ready = nodeCondition(node, 'Ready');
        if (!ready) return 50;
        let add: Taint, opposite: Taint;
        if (ready.status === 'False') [add, opposite] = [NOT_READY_TAINT, UNREACHABLE_TAINT];
        else if (ready.status === 'Unknown') [add, opposite] = [UNREACHABLE_TAINT, NOT_READY_TAINT];
        else return true;
        return (await this.swap(node, [add], [opposite])) ? true : 0;
      });
  }

  /**
   * A pod was added or changed (upstream podUpdated and processPod): a pod newly on a node whose
   * last seen Ready condition is not True is marked NotReady.
   */
  async podUpdated(oldPod: Pod | undefined, newPod: Pod): Promise<void> {
    const nodeName = newPod.spec?.nodeName;
    if (!nodeName || oldPod?.spec?.nodeName === nodeName) return;
    const health = this.health.get(nodeName);
    if (!health || !this.client.getNode(nodeName)) return;
    const ready = nodeCondition(health, 'Ready');
    if (ready && ready.status !== 'True') await markPodsNotReady(this.client, [newPod], nodeName, new Date(this.now()));
  }

  private async updateNode(input: Node, zoneConditions: Map<string, (NodeCondition | undefined)[]>): Promise<void> {
    let node: Node | undefined = input;
    const name = input.metadata.name ?? '';
    let observedReady: NodeCondition | undefined;
    let currentReady: NodeCondition | undefined;
    for (let attempt = 0; ; attempt++) {
      const check = checkNodeHealth(
        node,
        this.health.get(name),
        this.client.getLease(name)?.spec?.renewTime ?? undefined,
        this.now(),
        this.settings,
      );
      try {
        if (check.statusUpdate) {
          await this.client.writeNodeStatus(node, check.statusUpdate);
          node = { ...node, status: check.statusUpdate };
        }
        this.health.set(name, check.health);
        observedReady = check.observedReady;
        currentReady = check.currentReady;
        break;
      } catch {
        if (!check.statusUpdate) this.health.set(name, check.health);
        if (attempt + 1 >= HEALTH_UPDATE_RETRIES) return;
        node = await this.client.getNodeFresh(name).catch(() => undefined);
        if (!node) return;
      }
    }
    if (node.metadata.labels?.[EXCLUDE_DISRUPTION_LABEL] === undefined) {
      const zone = zoneKey(node);
      zoneConditions.set(zone, [...(zoneConditions.get(zone) ?? []), currentReady]);
    }
    if (!currentReady || !observedReady) return;
    const pods = this.client.podsOnNode(name);
    await this.processTaintBaseEviction(node, observedReady);
    const becameNotReady = currentReady.status !== 'True' && observedReady.status === 'True';
    if (becameNotReady) this.client.nodeEvent(node, 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
    if (becameNotReady || (this.nodesToRetry.has(name) && observedReady.status !== 'True')) {
      try {
        await markPodsNotReady(this.client, pods, name, new Date(this.now()));
      } catch {
        this.nodesToRetry.add(name);
        return;
      }
    }
    this.nodesToRetry.delete(name);
  }

  /** Upstream processTaintBaseEviction. */
  private async processTaintBaseEviction(node: Node, observedReady: NodeCondition): Promise<void> {
    const taints = node.spec?.taints;
    switch (observedReady.status) {
      case 'False':
        if (taintExists(taints, UNREACHABLE_TAINT)) await this.swap(node, [NOT_READY_TAINT], [UNREACHABLE_TAINT]);
        else this.markNodeForTainting(node, 'False');
        break;
      case 'Unknown':
        if (taintExists(taints, NOT_READY_TAINT)) await this.swap(node, [UNREACHABLE_TAINT], [NOT_READY_TAINT]);
        else this.markNodeForTainting(node, 'Unknown');
        break;
      case 'True':
        await this.markNodeAsReachable(node).catch(() => undefined);
        break;
    }
  }

  /** Queue the node for its NoExecute taint (upstream markNodeForTainting); whether it was queued. */
  private markNodeForTainting(node: Node, status: 'False' | 'Unknown'): boolean {
    const queue = this.zoneTainters.get(zoneKey(node))!;
    const name = node.metadata.name ?? '';
    const taint = status === 'False' ? NOT_READY_TAINT : UNREACHABLE_TAINT;
    if (!taintExists(node.spec?.taints, taint)) queue.remove(name);
    return queue.add(name, node.metadata.uid ?? '');
  }

  /** Remove both NoExecute taints and forget the node in its zone's queue (upstream markNodeAsReachable). */
  private async markNodeAsReachable(node: Node): Promise<boolean> {
    const taints = node.spec?.taints;
    if (taintExists(taints, UNREACHABLE_TAINT) || taintExists(taints, NOT_READY_TAINT))
      await this.client.updateNodeTaints(node, (cur) =>
        swapTaints(cur.spec?.taints, [], [UNREACHABLE_TAINT, NOT_READY_TAINT], new Date(this.now())),
      );
    return this.zoneTainters.get(zoneKey(node))?.remove(node.metadata.name ?? '') ?? false;
  }

  /** Swap taints on the node (upstream SwapNodeControllerTaint); whether it succeeded. */
  private async swap(node: Node, add: Taint[], remove: Taint[]): Promise<boolean> {
    try {
      await this.client.updateNodeTaints(node, (cur) =>
        swapTaints(cur.spec?.taints, add, remove, new Date(this.now())),
      );
      return true;
    } catch {
      return false;
    }
  }

  private addZone(node: Node): void {
    const zone = zoneKey(node);
    if (this.zoneStates.has(zone)) return;
    this.zoneStates.set(zone, 'Initial');
    this.zoneTainters.set(zone, new RateLimitedTimedQueue(this.settings.evictionLimiterQps, this.now));
  }

  private setZoneRate(zone: string, size: number, state: ZoneState): void {
    this.zoneTainters.get(zone)?.swapLimiter(zoneRate(state, size, this.settings));
  }

  /** Upstream handleDisruption. */
  private async handleDisruption(
    zoneConditions: Map<string, (NodeCondition | undefined)[]>,
    nodes: Node[],
  ): Promise<void> {
    const newStates = new Map<string, ZoneState>();
    let allAreFullyDisrupted = true;
    for (const [zone, conditions] of zoneConditions) {
      const [, state] = computeZoneState(conditions, this.settings.unhealthyZoneThreshold);
      if (state !== 'FullDisruption') allAreFullyDisrupted = false;
      newStates.set(zone, state);
      if (!this.zoneStates.has(zone)) this.zoneStates.set(zone, 'Initial');
    }
    let allWasFullyDisrupted = true;
    for (const [zone, state] of [...this.zoneStates]) {
      if (!zoneConditions.has(zone)) {
        this.zoneStates.delete(zone);
        continue;
      }
      if (state !== 'FullDisruption') {
        allWasFullyDisrupted = false;
        break;
      }
    }
    if (allAreFullyDisrupted && allWasFullyDisrupted) return;
    if (allAreFullyDisrupted) {
      for (const node of nodes) await this.markNodeAsReachable(node).catch(() => undefined);
      for (const zone of this.zoneStates.keys()) this.zoneTainters.get(zone)?.swapLimiter(0);
      for (const zone of this.zoneStates.keys()) this.zoneStates.set(zone, 'FullDisruption');
      return;
    }
    if (allWasFullyDisrupted) {
      const now = this.now();
      for (const node of nodes) {
        const h = this.health.get(node.metadata.name ?? '');
        if (h) this.health.set(node.metadata.name ?? '', { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
      }
      for (const zone of this.zoneStates.keys()) {
        const state = newStates.get(zone) ?? 'Normal';
        this.setZoneRate(zone, zoneConditions.get(zone)?.length ?? 0, state);
        this.zoneStates.set(zone, state);
      }
      return;
    }
    for (const [zone, state] of this.zoneStates) {
      const next = newStates.get(zone);
      if (!next || next === state) continue;
      this.setZoneRate(zone, zoneConditions.get(zone)?.length ?? 0, next);
      this.zoneStates.set(zone, next);
    }
  }
}

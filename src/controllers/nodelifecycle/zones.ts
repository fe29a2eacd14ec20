/**
 * Zones and the eviction rate limit of the node lifecycle controller (upstream 1.33
 * node_lifecycle_controller.go ComputeZoneState, HealthyQPSFunc, ReducedQPSFunc;
 * component-helpers node/topology GetZoneKey; pkg/controller/nodelifecycle/scheduler
 * rate_limited_queue.go RateLimitedTimedQueue with client-go's token bucket, burst 1).
 */
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { NodeCondition } from './node-health.js';

/** A zone's state (upstream ZoneState). */
export type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/**
 * The zone of a node: `<region>:\0:<zone>` from topology.kubernetes.io/region and /zone (else
 * their failure-domain.beta.kubernetes.io forms); '' when it has neither (upstream GetZoneKey).
 */
export function zoneKey(node: Pick<Node, 'metadata'>): string {
  const labels = node.metadata.labels ?? {};
  const zone = labels['topology.kubernetes.io/zone'] ?? labels['failure-domain.beta.kubernetes.io/zone'] ?? '';
  const region = labels['topology.kubernetes.io/region'] ?? labels['failure-domain.beta.kubernetes.io/region'] ?? '';
  return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/**
 * How many of a zone's nodes are not Ready, and its state (upstream ComputeZoneState): no Ready
 * node: FullDisruption; more than 2 not Ready and at least `unhealthyZoneThreshold` (a fraction)
 * of them: PartialDisruption; otherwise Normal. A missing Ready condition counts as not Ready.
 */
export function computeZoneState(
  readyConditions: readonly (NodeCondition | undefined)[],
  unhealthyZoneThreshold: number,
): [number, ZoneState] {
  const ready = readyConditions.filter((c) => c?.status === 'True').length;
  const notReady = readyConditions.length - ready;
  if (ready === 0 && notReady > 0) return [notReady, 'FullDisruption'];
  if (notReady > 2 && Math.fround(notReady / (notReady + ready)) >= Math.fround(unhealthyZoneThreshold))
    return [notReady, 'PartialDisruption'];
  return [notReady, 'Normal'];
}

/** The eviction settings (upstream flags of kube-controller-manager). */
export interface EvictionSettings {
  /** --node-eviction-rate: nodes per second tainted NoExecute in a healthy zone (default 0.1). */
  readonly evictionLimiterQps: number;
  /** --secondary-node-eviction-rate: in a partially disrupted large zone (default 0.01). */
  readonly secondaryEvictionLimiterQps: number;
  /** --large-cluster-size-threshold: above this many nodes a zone is large (default 50). */
  readonly largeClusterThreshold: number;
  /** --unhealthy-zone-threshold: fraction of not-Ready nodes making a zone unhealthy (default 0.55). */
  readonly unhealthyZoneThreshold: number;
}

/** The rate for a zone of `size` nodes entering `state` (upstream setLimiterInZone with the QPS funcs). */
export function zoneRate(state: ZoneState, size: number, s: EvictionSettings): number {
  switch (state) {
    case 'Normal':
    case 'FullDisruption':
      return s.evictionLimiterQps;
    case 'PartialDisruption':
      return size > s.largeClusterThreshold ? s.secondaryEvictionLimiterQps : 0;
    default:
      return s.evictionLimiterQps;
  }
}

/** client-go's token bucket with burst 1 (flowcontrol.NewTokenBucketRateLimiter); qps <= 0 refuses all. */
export class TokenBucket {
  private tokens = 1;
  private last: number;

  constructor(
    readonly qps: number,
    private readonly now: () => number,
  ) {
    this.last = now();
  }

  tryAccept(): boolean {
    if (this.qps <= 0) return false;
    const t = this.now();
    this.tokens = Math.min(1, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

interface TimedValue {
  readonly value: string;
  readonly uid: string;
  processAt: number;
}

/**
 * A queue of node names handled at a limited rate (upstream RateLimitedTimedQueue over a
 * UniqueQueue): a name stays known after it was handled (`add` refuses it) until `remove`.
 */
export class RateLimitedTimedQueue {
  private readonly queue: TimedValue[] = [];
  private readonly known = new Set<string>();
  private limiter: TokenBucket;

  constructor(
    qps: number,
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = new TokenBucket(qps, now);
  }

  /** Queue `value`; false when it is known already. */
  add(value: string, uid: string): boolean {
    if (this.known.has(value)) return false;
    this.known.add(value);
    this.queue.push({ value, uid, processAt: this.now() });
    return true;
  }

  /** Forget `value`; whether it was known. */
  remove(value: string): boolean {
    const i = this.queue.findIndex((v) => v.value === value);
    if (i >= 0) this.queue.splice(i, 1);
    return this.known.delete(value);
  }

  /**
   * Handle queued values in order while the rate allows (upstream Try): `fn` answers true when
   * done, else how long (ms) to wait before the value is tried again.
   */
  async try(fn: (v: { readonly value: string; readonly uid: string }) => Promise<true | number>): Promise<void> {
    this.queue.sort((a, b) => a.processAt - b.processAt);
    while (this.queue.length) {
      if (!this.limiter.tryAccept()) return;
      const head = this.queue[0]!;
      const t = this.now();
      if (t < head.processAt) return;
      const result = await fn(head);
      if (result === true) {
        const i = this.queue.indexOf(head);
        if (i >= 0) this.queue.splice(i, 1);
      } else {
        head.processAt = t + result + 1;
        this.queue.sort((a, b) => a.processAt - b.processAt);
      }
    }
  }

  /** Use a new rate (upstream SwapLimiter). */
  swapLimiter(qps: number): void {
    if (qps === this.limiter.qps) return;
    this.limiter = new TokenBucket(qps, this.now);
  }

  /** The queued values, in order (for tests and logs). */
  values(): string[] {
    return this.queue.map((v) => v.value);
  }
}

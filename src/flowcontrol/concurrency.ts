/**
 * Concurrency sharing between priority levels (upstream k8s.io/apiserver pkg/util/flowcontrol
 * conc_alloc.go, apf_controller.go seatDemandStats, fairqueuing/integrator.go): each level's seat
 * demand is integrated over time; every 10 s its statistics set a target, and the server's
 * nominal seats are divided among the limited levels in proportion to their targets within
 * each level's bounds [minCL, maxCL] (the lending and borrowing limits).
 */

/** Time-weighted statistics of a value since the last reset (upstream fairqueuing integrator). */
export class Integrator {
  private lastTime: number;
  private x = 0;
  private elapsed = 0;
  private integralX = 0;
  private integralXX = 0;
  private min = 0;
  private max = 0;

  /** `now` returns milliseconds. */
  constructor(private readonly now: () => number) {
    this.lastTime = now();
  }

  /** The value from now on. */
  set(x: number): void {
    this.advance();
    this.x = x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  /** Statistics since the last reset (seconds, time-weighted average and standard deviation, max); then start over. */
  reset(): { duration: number; average: number; deviation: number; max: number } {
    this.advance();
    const duration = this.elapsed;
    const average = duration > 0 ? this.integralX / duration : NaN;
    const variance = duration > 0 ? this.integralXX / duration - average * average : NaN;
    const result = { duration, average, deviation: Math.sqrt(Math.max(0, variance)), max: this.max };
    this.elapsed = this.integralX = this.integralXX = 0;
    this.min = this.max = this.x;
    return result;
  }

  private advance(): void {
    const now = this.now();
    const dt = (now - this.lastTime) / 1000;
    this.lastTime = now;
    this.elapsed += dt;
    this.integralX += this.x * dt;
    this.integralXX += this.x * this.x * dt;
  }
}

/** Upstream's seatDemandSmoothingCoefficient. */
const SMOOTHING = 0.977;

/** A level's seat demand over the last period, and its smoothed envelope (upstream seatDemandStats). */
export class SeatDemandStats {
  highWatermark = 0;
  smoothed = 0;

  update(obs: { duration: number; average: number; deviation: number; max: number }): void {
    this.highWatermark = Math.round(obs.max);
    if (obs.duration <= 0) return;
    const envelope = obs.average + (Number.isNaN(obs.deviation) ? 0 : obs.deviation);
    this.smoothed = Math.max(envelope, SMOOTHING * this.smoothed + (1 - SMOOTHING) * envelope);
  }
}

/** One limited level in the allocation problem. */
export interface AllocationItem {
  readonly target: number;
  readonly lowerBound: number;
  readonly upperBound: number;
}

const MIN_TARGET = 0.001;
const EPSILON = 0.0000001;

/**
 * Divide `requiredSum` seats among `items`: each gets max(lower, min(upper, fairProp x target)),
 * fairProp chosen so that the allocations sum to requiredSum (upstream
 * computeConcurrencyAllocation). Returns the allocations and fairProp. Throws Error when the
 * bounds make it impossible.
 */
export function computeConcurrencyAllocation(
  requiredSum: number,
  items: readonly AllocationItem[],
): { allocations: number[]; fairProp: number } {
  if (requiredSum < 0) throw new Error('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  let targetSum = 0;
  let lbMax = 0;
  let lbMin = Infinity;
  let ubMin = Infinity;
  let ubMax = 0;
  const relative = items.map((item, idx) => {
    if (item.lowerBound < 0)
      throw new Error(`lower bound ${idx} is ${item.lowerBound} but negative lower bounds are not allowed`);
    if (item.target < item.lowerBound) throw new Error(`target ${idx} is below its lower bound`);
    if (item.upperBound < item.lowerBound) throw new Error(`upper bound ${idx} is below its lower bound`);
    const target = Math.max(item.target, MIN_TARGET);
    lowSum += item.lowerBound;
    highSum += item.upperBound;
    targetSum += target;
    const lower = item.lowerBound / target;
    const upper = item.upperBound / target;
    lbMax = Math.max(lbMax, lower);
    lbMin = Math.min(lbMin, lower);
    ubMin = Math.min(ubMin, upper);
    ubMax = Math.max(ubMax, upper);
    return { target, lower, upper };
  });
  if (lowSum - requiredSum > EPSILON)
    throw new Error(`lower bounds sum to ${lowSum}, above the required ${requiredSum}`);
  if (requiredSum - highSum > EPSILON)
    throw new Error(`upper bounds sum to ${highSum}, below the required ${requiredSum}`);
  if (requiredSum === 0) return { allocations: items.map(() => 0), fairProp: 0 };
  if (lowSum - requiredSum > -EPSILON) return { allocations: items.map((i) => i.lowerBound), fairProp: lbMin };
  if (requiredSum - highSum > -EPSILON) return { allocations: items.map((i) => i.upperBound), fairProp: ubMax };
  let fairProp = requiredSum / targetSum;
  if (lbMax <= fairProp && fairProp <= ubMin)
    return { allocations: relative.map((r) => r.target * fairProp), fairProp };
  // Sweep the bounds in ascending order, tracking the classes whose allocation follows fairProp.
  const bounds = relative
    .flatMap((r) => [
      { at: r.lower, delta: r.target },
      { at: r.upper, delta: -r.target },
    ])
    .sort((a, b) => a.at - b.at);
  let sumSoFar = lowSum;
  fairProp = lbMin;
  let sensitiveTargetSum = 0;
  let sensitiveClasses = 0;
  let next = 0;
  let pending = 0;
  while (sumSoFar < requiredSum) {
    let nextBound: number;
    for (;;) {
      sensitiveTargetSum += pending;
      sensitiveClasses += Math.sign(pending);
      if (next >= bounds.length) throw new Error('impossible: ran out of bounds to consider');
      nextBound = bounds[next].at;
      pending = bounds[next].delta;
      next++;
      if (nextBound > fairProp) break;
    }
    if (sensitiveClasses === 0) {
      fairProp = nextBound;
      continue;
    }
    const nextProp = fairProp + (requiredSum - sumSoFar) / sensitiveTargetSum;
    if (nextProp <= nextBound) {
      fairProp = nextProp;
      break;
    }
    sumSoFar += (nextBound - fairProp) * sensitiveTargetSum;
    fairProp = nextBound;
  }
  return {
    allocations: items.map((item, idx) =>
      Math.max(item.lowerBound, Math.min(item.upperBound, fairProp * relative[idx].target)),
    ),
    fairProp,
  };
}

/**
 * API Priority and Fairness: the configuration consumer and dispatcher (upstream k8s.io/apiserver
 * pkg/util/flowcontrol apf_controller.go). It digests the PriorityLevelConfiguration and
 * FlowSchema objects into priority levels with queue sets and an ordered list of schemas
 * (adding the mandatory `exempt` and `catch-all` ones where the stored configuration lacks
 * them, ignoring broken levels and schemas whose level does not exist: those are reported as
 * Dangling), classifies each request to the first matching schema (by matchingPrecedence, then
 * name) and its level and flow, and every 10 s re-divides the server's seats among the limited
 * levels by their recent seat demand, within their lending and borrowing limits.
 */
import { computeConcurrencyAllocation } from './concurrency.js';
import { LevelState, queuingOf } from './levels.js';
import { mandatoryFlowSchema } from '../resources/flowschemas/bootstrap.js';
import { mandatoryPriorityLevel } from '../resources/prioritylevelconfigurations/bootstrap.js';
import type { FlowControlMetrics } from './metrics.js';
import { matchesFlowSchema } from './rules.js';
import { hashFlowId } from './shuffle-sharding.js';
import { CATCH_ALL, EXEMPT, nameOf, type FlowSchemaView, type PriorityLevelView, type RequestDigest } from './types.js';

/**
 * The mandatory objects (upstream bootstrap default.go, kept in resources/): used where the
 * stored configuration lacks them, as upstream's config controller imagines them.
 */
const MANDATORY_EXEMPT_SCHEMA: FlowSchemaView = mandatoryFlowSchema(EXEMPT)!;
const MANDATORY_CATCH_ALL_SCHEMA: FlowSchemaView = mandatoryFlowSchema(CATCH_ALL)!;
const MANDATORY_LEVELS: readonly PriorityLevelView[] = [
  mandatoryPriorityLevel(EXEMPT)!,
  mandatoryPriorityLevel(CATCH_ALL)!,
];

/** Upstream's borrowingAdjustmentPeriod. */
export const BORROWING_ADJUSTMENT_MS = 10_000;

/** Where a request goes: its schema, level and flow (hash 0n when the level has at most one queue). */
export interface Classification {
  readonly schema: FlowSchemaView;
  readonly level: LevelState;
  readonly distinguisher: string;
  readonly hash: bigint;
}

/** The Dangling condition a FlowSchema's status should carry, when it differs from what it has. */
export interface DanglingUpdate {
  readonly schema: FlowSchemaView;
  readonly condition: { type: 'Dangling'; status: 'True' | 'False'; reason: string; message: string };
}

export interface FlowControlOptions {
  /** --max-requests-inflight plus --max-mutating-requests-inflight. */
  readonly serverConcurrencyLimit: number;
  readonly metrics?: FlowControlMetrics;
  /** Milliseconds (tests give their own clock). */
  readonly now?: () => number;
  /** Told of every unusable level ("name: why"). */
  readonly onBrokenLevel?: (message: string) => void;
}

/** See the file comment. Configure once before classifying. */
export class FlowControl {
  private levels = new Map<string, LevelState>();
  private schemas: FlowSchemaView[] = [MANDATORY_EXEMPT_SCHEMA, MANDATORY_CATCH_ALL_SCHEMA];
  private nominalSum = 0;
  private readonly now: () => number;
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: FlowControlOptions) {
    this.now = options.now ?? Date.now;
    this.configure([], []);
  }

  /** The levels in force, by name. */
  get priorityLevels(): ReadonlyMap<string, LevelState> {
    return this.levels;
  }

  /** The schemas in force, in matching order. */
  get flowSchemas(): readonly FlowSchemaView[] {
    return this.schemas;
  }

  /**
   * Take a new configuration (every stored level and schema). Returns the Dangling conditions
   * to write to the schemas' status (upstream presyncFlowSchemaStatus).
   */
  configure(levels: readonly PriorityLevelView[], schemas: readonly FlowSchemaView[]): DanglingUpdate[] {
    const next = new Map<string, LevelState>();
    for (const pl of levels) {
      const queuing = queuingOf(pl);
      if (typeof queuing === 'string') {
        this.options.onBrokenLevel?.(`${nameOf(pl)}: ${queuing}`);
        continue;
      }
      const state = this.levels.get(nameOf(pl)) ?? new LevelState(pl, queuing, this.now);
      state.pl = pl;
      state.queuing = queuing;
      state.quiescing = false;
      next.set(nameOf(pl), state);
    }
    // Schemas may point only at configured levels (not the retained or imagined ones).
    const configured = new Set(next.keys());
    const haveExempt = next.has(EXEMPT);
    const haveCatchAll = next.has(CATCH_ALL);
    for (const [name, state] of this.levels) {
      if (next.has(name)) continue;
      const mandatory = (name === EXEMPT && !haveExempt) || (name === CATCH_ALL && !haveCatchAll);
      if (!mandatory) {
        if (state.queues.idle) continue;
        state.quiescing = true;
      }
      next.set(name, state);
    }
    for (const proto of MANDATORY_LEVELS)
      if (!next.has(nameOf(proto))) next.set(nameOf(proto), new LevelState(proto, queuingOf(proto) as never, this.now));

    const updates: DanglingUpdate[] = [];
    const seq: FlowSchemaView[] = [];
    for (const fs of schemas) {
      const target = fs.spec.priorityLevelConfiguration.name;
      const update = danglingUpdate(fs, configured.has(target));
      if (update) updates.push(update);
      if (configured.has(target)) seq.push(fs);
    }
    seq.sort(
      (a, b) =>
        (a.spec.matchingPrecedence ?? 1000) - (b.spec.matchingPrecedence ?? 1000) ||
        (nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0),
    );
    if (!seq.some((fs) => nameOf(fs) === EXEMPT)) seq.unshift(MANDATORY_EXEMPT_SCHEMA);
    if (!seq.some((fs) => nameOf(fs) === CATCH_ALL)) seq.push(MANDATORY_CATCH_ALL_SCHEMA);

    const serverCL = this.options.serverConcurrencyLimit;
    let shareSum = 0;
    for (const state of next.values()) shareSum += state.shares.nominal;
    let nominalSum = 0;
    const metrics = this.options.metrics;
    for (const state of next.values()) {
      nominalSum += state.size(serverCL, shareSum);
      metrics?.nominalLimitSeats.set({ priority_level: state.name }, state.nominalCL);
      metrics?.lowerLimitSeats.set({ priority_level: state.name }, state.minCL);
      metrics?.upperLimitSeats.set({ priority_level: state.name }, state.maxCL);
    }
    this.nominalSum = nominalSum;
    this.levels = next;
    this.schemas = seq;
    this.updateBorrowing();
    return updates;
  }

  /**
   * The schema, level and flow of a request (upstream startRequest's classification): the
   * first schema that matches, else `catch-all`.
   */
  classify(digest: RequestDigest): Classification {
    let schema: FlowSchemaView | undefined;
    for (const fs of this.schemas)
      if (matchesFlowSchema(digest, fs)) {
        schema = fs;
        break;
      }
    schema ??= this.schemas.find((fs) => nameOf(fs) === CATCH_ALL) as FlowSchemaView;
    const level = this.levels.get(schema.spec.priorityLevelConfiguration.name) as LevelState;
    let distinguisher = '';
    let hash = 0n;
    if (level.queuing.queues > 1) {
      const method = schema.spec.distinguisherMethod?.type;
      distinguisher = method === 'ByUser' ? digest.user.name : method === 'ByNamespace' ? digest.namespace : '';
      hash = hashFlowId(nameOf(schema), distinguisher);
    }
    return { schema, level, distinguisher, hash };
  }

  /** Re-divide seats every 10 s until {@link stop}. */
  start(): void {
    this.timer ??= setInterval(() => this.updateBorrowing(), BORROWING_ADJUSTMENT_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Lending and borrowing (upstream updateBorrowingLocked): each level's seat demand since the
   * last call gives it a floor (its lower limit, raised toward its nominal limit by its demand's
   * high watermark) and a target (its smoothed demand); the nominal seats are divided by
   * computeConcurrencyAllocation, or, when the floors do not fit, shared out proportionally.
   */
  updateBorrowing(): void {
    const items: { state: LevelState; floor: number; index: number }[] = [];
    const problem: { target: number; lowerBound: number; upperBound: number }[] = [];
    let remaining = this.nominalSum;
    let minSum = 0;
    let floorSum = 0;
    const exemptCL = new Map<LevelState, number>();
    for (const state of this.levels.values()) {
      state.stats.update(state.demand.reset());
      if (state.exempt) {
        const cl = Math.max(state.minCL, state.stats.highWatermark);
        exemptCL.set(state, cl);
        remaining -= cl;
        continue;
      }
      const floor = Math.max(state.minCL, Math.min(state.nominalCL, state.stats.highWatermark));
      items.push({ state, floor, index: problem.length });
      problem.push({ lowerBound: floor, upperBound: state.maxCL, target: Math.max(floor, state.stats.smoothed) });
      minSum += state.minCL;
      floorSum += floor;
    }
    let allocations: number[] | undefined;
    if (remaining > floorSum) {
      try {
        allocations = computeConcurrencyAllocation(this.nominalSum, problem).allocations;
      } catch {
        allocations = items.map((i) => i.state.currentCL);
      }
    }
    const shareFrac = remaining > minSum && remaining <= floorSum ? (remaining - minSum) / (floorSum - minSum) : 0;
    for (const [state, cl] of exemptCL) this.apply(state, cl);
    for (const { state, floor, index } of items) {
      let cl: number;
      if (remaining <= minSum) cl = state.minCL;
      else if (!allocations) cl = state.minCL + Math.round((floor - state.minCL) * shareFrac);
      else cl = Math.round(allocations[index]);
      this.apply(state, cl);
    }
  }

  private apply(state: LevelState, cl: number): void {
    state.currentCL = cl;
    state.queues.configure(state.queuing, cl);
    this.options.metrics?.currentLimitSeats.set({ priority_level: state.name }, cl);
  }
}

/** Upstream presyncFlowSchemaStatus: the Dangling condition `fs` should have, if it has another. */
function danglingUpdate(fs: FlowSchemaView, found: boolean): DanglingUpdate | undefined {
  const level = fs.spec.priorityLevelConfiguration.name;
  const condition = found
    ? {
        type: 'Dangling' as const,
        status: 'False' as const,
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists`,
      }
    : {
        type: 'Dangling' as const,
        status: 'True' as const,
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" but there is no such object`,
      };
  return hasDangling(fs, condition) ? undefined : { schema: fs, condition };
}

/** Whether `fs`'s status already carries `condition` (its status, reason and message). */
export function hasDangling(fs: FlowSchemaView, condition: DanglingUpdate['condition']): boolean {
  const current = fs.status?.conditions?.find((c) => c.type === 'Dangling');
  return (
    current?.status === condition.status && current.reason === condition.reason && current.message === condition.message
  );
}

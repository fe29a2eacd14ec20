/**
 * API Priority and Fairness, the filter (upstream k8s.io/apiserver pkg/server/filters/
 * priority-and-fairness.go), in place of max-in-flight when --enable-priority-and-fairness is
 * on (the default). Each request but the long-running non-watch ones (exec, attach, proxy,
 * log, port-forward) is classified to a FlowSchema and priority level; the response carries
 * their UIDs in `X-Kubernetes-PF-FlowSchema-UID` and `X-Kubernetes-PF-PriorityLevel-UID`.
 * It then executes at once, waits in its flow's queue for a seat, or is rejected: `429` with a
 * `Retry-After` that grows while the level keeps dropping requests, and upstream's plain-text
 * body "Too many requests, please try again later." A request waits at most a quarter of its
 * deadline (of --request-timeout for watches), and leaves the queue when its client does. A
 * watch holds its seats until it is established; any other request until it completes or its
 * deadline passes.
 */
import type { Gauge } from 'prom-client';
import { DroppedRequests } from '../../flowcontrol/dropped-requests.js';
import type { FlowControl } from '../../flowcontrol/flow-control.js';
import type { LevelState } from '../../flowcontrol/levels.js';
import type { FlowControlMetrics, FlowMetrics } from '../../flowcontrol/metrics.js';
import type { RejectReason } from '../../flowcontrol/queue-set.js';
import { nameOf, type FlowSchemaView, type RequestDigest } from '../../flowcontrol/types.js';
import { estimateWork, type ListQuery, type WorkEstimatorSources } from '../../flowcontrol/work-estimator.js';
import type { ApiContext } from '../context.js';
import { holdUntilDone, isLongRunning, maxRequestTimeoutMs, requestTimeoutMs } from './request-deadline.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Longest a request may wait in a queue, whatever its deadline (upstream getRequestWaitContext). */
const MAX_WAIT_MS = 60_000;
const ANONYMOUS = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };
const REJECTED_BODY = 'Too many requests, please try again later.\n';

export interface PriorityAndFairnessDeps {
  readonly flowControl: FlowControl;
  readonly metrics: FlowControlMetrics;
  readonly sources: WorkEstimatorSources;
  /** apiserver_current_inflight_requests{request_kind}: requests executing, by kind. */
  readonly inflight?: Gauge<string>;
  /** Called for each request rejected with 429 (apiserver_request_terminations_total). */
  readonly onReject?: (ctx: ApiContext) => void;
}

/** What the filter keeps per (FlowSchema, level) pair: its headers and its metrics. */
interface Flow {
  readonly level: string;
  readonly schemaUid: string;
  readonly levelUid: string;
  readonly metrics: FlowMetrics;
}

/** The filter; place it where max-in-flight goes (after impersonation, before authorization). */
export function priorityAndFairness(deps: PriorityAndFairnessDeps) {
  const { flowControl, metrics } = deps;
  const dropped = new DroppedRequests();
  const executing = { readOnly: 0, mutating: 0 };
  const inflight = {
    readOnly: deps.inflight?.labels({ request_kind: 'readOnly' }),
    mutating: deps.inflight?.labels({ request_kind: 'mutating' }),
  };
  // Per schema object (replaced when the configuration changes) and level: built once.
  const flows = new WeakMap<FlowSchemaView, WeakMap<LevelState, Flow>>();
  const flowOf = (schema: FlowSchemaView, level: LevelState): Flow => {
    let byLevel = flows.get(schema);
    if (!byLevel) flows.set(schema, (byLevel = new WeakMap()));
    let flow = byLevel.get(level);
    if (!flow) {
      flow = {
        level: level.name,
        schemaUid: schema.metadata.uid ?? '',
        levelUid: level.pl.metadata.uid ?? '',
        metrics: metrics.flow({ priority_level: level.name, flow_schema: nameOf(schema) }),
      };
      byLevel.set(level, flow);
    }
    return flow;
  };
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const info = ctx.state.requestInfo;
    const watch = info.verb === 'watch';
    if (isLongRunning(info) && !watch) return next();
    const digest: RequestDigest = {
      user: ctx.state.user ?? ANONYMOUS,
      isResourceRequest: info.isResourceRequest,
      verb: info.isResourceRequest ? info.verb : ctx.method.toLowerCase(),
      group: info.group,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      name: info.name,
      path: info.path,
    };
    const { schema, level, hash } = flowControl.classify(digest);
    const flow = flowOf(schema, level);
    ctx.set('X-Kubernetes-PF-FlowSchema-UID', flow.schemaUid);
    ctx.set('X-Kubernetes-PF-PriorityLevel-UID', flow.levelUid);
    const m = flow.metrics;
    const work = estimateWork(deps.sources, digest, listQuery(ctx, digest.verb), level.maxSeats);
    const req = level.queues.startRequest(work, hash);
    if (typeof req === 'string') return reject(ctx, flow, req);
    if (req.state === 'waiting') {
      const started = performance.now();
      m.inQueue++;
      let reason: RejectReason = 'time-out';
      const timer = setTimeout(() => req.cancel('time-out'), waitLimitMs(ctx, watch));
      const gone = () => {
        reason = 'cancelled';
        req.cancel('cancelled');
      };
      ctx.res.once('close', gone);
      const executed = await req.decided;
      clearTimeout(timer);
      ctx.res.off('close', gone);
      m.inQueue--;
      (executed ? m.waitedExecuted : m.waitedRejected)((performance.now() - started) / 1000);
      if (!executed) return reject(ctx, flow, reason);
    }
    m.dispatched();
    const kind = MUTATING.has(ctx.method) ? 'mutating' : 'readOnly';
    const seats = req.maxSeats;
    executing[kind]++;
    inflight[kind]?.set(executing[kind]);
    m.executing++;
    m.executingSeats += seats;
    const startedAt = performance.now();
    // A request answered 504 by its deadline frees its seats then, as upstream's handler returns.
    return holdUntilDone(
      ctx,
      () => {
        req.finish();
        executing[kind]--;
        inflight[kind]?.set(executing[kind]);
        m.executing--;
        m.executingSeats -= seats;
        (watch ? m.executedWatch : m.executedRegular)((performance.now() - startedAt) / 1000);
      },
      next,
    );
  };

  /** Upstream's tooManyRequests: plain text, and the level's current Retry-After. */
  function reject(ctx: ApiContext, flow: Flow, reason: RejectReason): void {
    flow.metrics.rejected(reason);
    dropped.record(flow.level);
    deps.onReject?.(ctx);
    ctx.status = 429;
    ctx.set('Retry-After', String(dropped.retryAfter(flow.level)));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = REJECTED_BODY;
  }
}

/** A quarter of the request's deadline (--request-timeout for a watch or an unreadable `timeout`), at most a minute. */
function waitLimitMs(ctx: ApiContext, watch: boolean): number {
  let timeout = maxRequestTimeoutMs(ctx);
  try {
    if (!watch) timeout = requestTimeoutMs(ctx);
  } catch {
    // An unreadable `timeout` was answered 400 before this filter (request-deadline.ts).
  }
  return Math.min(timeout / 4, MAX_WAIT_MS);
}

const NO_QUERY: ListQuery = {};

/** The query parameters a list's cost depends on (only lists and watches read them). */
function listQuery(ctx: ApiContext, verb: string): ListQuery {
  if (verb !== 'list' && verb !== 'watch') return NO_QUERY;
  const q = ctx.query;
  const one = (name: string): string | undefined => {
    const v = q[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const limit = Number(one('limit'));
  return {
    resourceVersion: one('resourceVersion'),
    resourceVersionMatch: one('resourceVersionMatch'),
    continue: one('continue'),
    limit: Number.isFinite(limit) ? limit : undefined,
    labelSelector: one('labelSelector'),
    fieldSelector: one('fieldSelector'),
    sendInitialEvents: one('sendInitialEvents') === 'true',
  };
}

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
import type { FlowControlMetrics } from '../../flowcontrol/metrics.js';
import type { RejectReason } from '../../flowcontrol/queue-set.js';
import { nameOf, type RequestDigest } from '../../flowcontrol/types.js';
import { estimateWork, type ListQuery, type WorkEstimatorSources } from '../../flowcontrol/work-estimator.js';
import type { ApiContext } from '../context.js';
import { deadlineOf, isLongRunning, maxRequestTimeoutMs, requestTimeoutMs } from './request-deadline.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Longest a request may wait in a queue, whatever its deadline (upstream getRequestWaitContext). */
const MAX_WAIT_MS = 60_000;
const ANONYMOUS = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] };

export interface PriorityAndFairnessDeps {
  readonly flowControl: FlowControl;
  readonly metrics: FlowControlMetrics;
  readonly sources: WorkEstimatorSources;
  /** apiserver_current_inflight_requests{request_kind}: requests executing, by kind. */
  readonly inflight?: Gauge<string>;
  /** Called for each request rejected with 429 (apiserver_request_terminations_total). */
  readonly onReject?: (ctx: ApiContext) => void;
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
  // Metric children per (level, schema): label hashing once, not on every request.
  const children = new Map<string, ReturnType<typeof childrenFor>>();
  const childrenOf = (labels: Labels) => {
    const key = `${labels.priority_level}\0${labels.flow_schema}`;
    let c = children.get(key);
    if (!c) children.set(key, (c = childrenFor(metrics, labels)));
    return c;
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
    ctx.set('X-Kubernetes-PF-FlowSchema-UID', schema.metadata.uid ?? '');
    ctx.set('X-Kubernetes-PF-PriorityLevel-UID', level.pl.metadata.uid ?? '');
    const labels = { priority_level: level.name, flow_schema: nameOf(schema) };
    const m = childrenOf(labels);
    const work = estimateWork(deps.sources, digest, listQuery(ctx), level.maxSeats);
    const req = level.queues.startRequest(work, hash);
    if (typeof req === 'string') return reject(ctx, labels, req);
    if (req.state === 'waiting') {
      const started = performance.now();
      m.inQueue.inc();
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
      m.inQueue.dec();
      (executed ? m.waitedExecuted : m.waitedRejected).observe((performance.now() - started) / 1000);
      if (!executed) return reject(ctx, labels, reason);
    }
    m.dispatched.inc();
    const kind = MUTATING.has(ctx.method) ? 'mutating' : 'readOnly';
    const seats = req.maxSeats;
    executing[kind]++;
    inflight[kind]?.set(executing[kind]);
    m.executing.inc();
    m.executingSeats.inc(seats);
    const startedAt = performance.now();
    const signal = deadlineOf(ctx)?.signal;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      signal?.removeEventListener('abort', release);
      req.finish();
      executing[kind]--;
      inflight[kind]?.set(executing[kind]);
      m.executing.dec();
      m.executingSeats.dec(seats);
      (watch ? m.executedWatch : m.executedRegular).observe((performance.now() - startedAt) / 1000);
    };
    signal?.addEventListener('abort', release);
    try {
      await next();
    } finally {
      release();
    }
  };

  /** Upstream's tooManyRequests: plain text, and the level's current Retry-After. */
  function reject(
    ctx: ApiContext,
    labels: { priority_level: string; flow_schema: string },
    reason: RejectReason,
  ): void {
    metrics.rejected.inc({ ...labels, reason });
    dropped.record(labels.priority_level);
    deps.onReject?.(ctx);
    ctx.status = 429;
    ctx.set('Retry-After', String(dropped.retryAfter(labels.priority_level)));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = 'Too many requests, please try again later.\n';
  }
}

type Labels = { priority_level: string; flow_schema: string };

/** The labelled metrics one (level, schema) pair updates. */
function childrenFor(metrics: FlowControlMetrics, labels: Labels) {
  return {
    inQueue: metrics.inQueue.labels(labels),
    dispatched: metrics.dispatched.labels(labels),
    executing: metrics.executing.labels(labels),
    executingSeats: metrics.executingSeats.labels(labels),
    waitedExecuted: metrics.waitDuration.labels({ ...labels, execute: 'true' }),
    waitedRejected: metrics.waitDuration.labels({ ...labels, execute: 'false' }),
    executedRegular: metrics.executionSeconds.labels({ ...labels, type: 'regular' }),
    executedWatch: metrics.executionSeconds.labels({ ...labels, type: 'watch' }),
  };
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

/** The query parameters a list's cost depends on. */
function listQuery(ctx: ApiContext): ListQuery {
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

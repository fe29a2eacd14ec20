/**
 * Request metrics and access logs: apiserver_request_total and
 * apiserver_request_duration_seconds with upstream's labels (verb in upper case as upstream
 * reports it: GET, LIST, WATCH, POST, PUT, PATCH, DELETE, DELETECOLLECTION), plus one pino line
 * per request with a request id (also the `Audit-Id` header and the audit events' auditID).
 * The `dry_run` label is upstream's cleanDryRun: '' without dryRun, the sorted distinct values
 * joined by ',' when they are valid, else 'invalid'.
 */
import type { Logger } from 'pino';
import { randomUuid } from '../../api/uuid.js';
import type { Gauge } from 'prom-client';
import { labelKey, type TalliedCounter, type TalliedHistogram } from '../../observability/tallied.js';
import type { ApiContext } from '../context.js';

export interface RequestMetrics {
  readonly requestTotal: TalliedCounter;
  readonly requestDuration: TalliedHistogram;
  readonly requestSliDuration: TalliedHistogram;
  readonly responseSizes: TalliedHistogram;
}

/** Paths of probes and scrapes: their access lines are logged at debug, not info. */
const QUIET_PATHS = /^\/(healthz|livez|readyz|metrics)(\/|$)/;

/** The request labels upstream's metrics share (verb, dry_run, group, version, resource, subresource, scope, component). */
export function requestLabels(ctx: ApiContext): Record<string, string> {
  const info = ctx.state.requestInfo;
  return {
    verb: (info?.isResourceRequest ? VERBS[info.verb] : undefined) ?? ctx.method,
    dry_run: dryRunLabel(ctx.query.dryRun),
    group: info?.group ?? '',
    version: info?.version ?? '',
    resource: info?.resource ?? '',
    subresource: info?.subresource ?? '',
    scope: !info?.isResourceRequest ? '' : info.name ? 'resource' : info.namespace ? 'namespace' : 'cluster',
    component: 'apiserver',
  };
}

const VERBS: Record<string, string> = {
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
};

/**
 * Count, time and log every request. A watch is long-running: it raises
 * apiserver_longrunning_requests while open, and is left out of the SLI latency and response
 * sizes, as upstream does.
 */
export function observe(metrics: RequestMetrics, logger: Logger) {
  const recorders = recordersBy(metrics);
  // Not an async function: one promise per request fewer (the finisher runs on next()'s).
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const started = process.hrtime.bigint();
    // The audit ID: the client's `Audit-ID` as upstream's WithAuditInit keeps it, else
    // X-Request-Id, else new (a flat string: a watch keeps it for its whole life).
    const requestId = ctx.get('Audit-ID') || ctx.get('X-Request-Id') || randomUuid();
    ctx.set('Audit-Id', requestId);
    ctx.state.auditId = requestId;
    // A streamed response (a watch) is counted and logged when it ends, from the values read
    // when the middleware are done: the closure keeps no reference to the request's context.
    const finish = () => whenEnded(ctx, finisher(ctx, recorders, logger, started, requestId));
    return next().then(finish, (err: unknown) => {
      finish();
      throw err;
    });
  };
}

/** Run `fn` once the response has ended: now, or when the handler's stream ends (a watch). */
function whenEnded(ctx: ApiContext, fn: () => void): void {
  if (ctx.state.stream) ctx.state.stream.onEnd(fn);
  else fn();
}

/** The request metrics' recorders for one label set (every label but `code`). */
interface Recorders {
  /** apiserver_request_total for one code. */
  total(code: string): void;
  duration(seconds: number): void;
  /** The SLI latency and response sizes; absent for watches, which are left out of both. */
  sli?: (seconds: number) => void;
  size?: (bytes: number) => void;
}

/**
 * The recorders of a request's labels, made once per label set: every request of a kind of
 * call (verb, resource, scope...) records through the same four, instead of looking up four
 * label sets. Bounded: forgotten past 1,000 sets (the recorders stay valid).
 */
function recordersBy(metrics: RequestMetrics): (labels: Record<string, string>) => Recorders {
  const sets = new Map<string, Recorders>();
  return (labels) => {
    const key = labelKey(LABEL_NAMES, labels);
    const known = sets.get(key);
    if (known) return known;
    const totals = new Map<string, () => void>();
    const shared = withoutDryRun(labels);
    const made: Recorders = {
      total: (code) => {
        let add = totals.get(code);
        if (!add) totals.set(code, (add = metrics.requestTotal.adder({ ...labels, code })));
        add();
      },
      duration: metrics.requestDuration.recorder(labels),
      sli: labels.verb === 'WATCH' ? undefined : metrics.requestSliDuration.recorder(shared),
      size: labels.verb === 'WATCH' ? undefined : metrics.responseSizes.recorder(shared),
    };
    if (sets.size >= 1000) sets.clear();
    sets.set(key, made);
    return made;
  };
}

const LABEL_NAMES = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope'] as const;

/** What observe records once a request has ended, from values read off `ctx` now. */
function finisher(
  ctx: ApiContext,
  recordersOf: (labels: Record<string, string>) => Recorders,
  logger: Logger,
  started: bigint,
  requestId: string,
): () => void {
  const code = String(ctx.respond === false ? ctx.res.statusCode : ctx.status);
  const recorders = recordersOf(requestLabels(ctx));
  const size = ctx.response.length ?? 0;
  // The access line's fields, only when it is logged (production logs at warn: no line, and no
  // look at the path; a level that shows no info line shows no debug line either).
  const level = !logger.isLevelEnabled('info') ? undefined : QUIET_PATHS.test(ctx.path) ? 'debug' : 'info';
  const fields =
    level && logger.isLevelEnabled(level)
      ? {
          requestId,
          method: ctx.method,
          path: ctx.path,
          code: Number(code),
          ms: 0,
          user: ctx.state.user?.name,
          userAgent: ctx.get('User-Agent'),
        }
      : undefined;
  return () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    recorders.total(code);
    recorders.duration(seconds);
    recorders.sli?.(seconds);
    recorders.size?.(size);
    if (!fields || !level) return;
    fields.ms = Math.round(seconds * 1000);
    logger[level](fields, 'request');
  };
}

/** The labels of upstream's newer request metrics: requestLabels without dry_run. */
export function sharedLabels(ctx: ApiContext): Record<string, string> {
  return withoutDryRun(requestLabels(ctx));
}

function withoutDryRun(labels: Record<string, string>): Record<string, string> {
  const { dry_run: _dryRun, ...shared } = labels;
  return shared;
}

/**
 * Raise apiserver_longrunning_requests while a watch is open. Runs after request info is known
 * (upstream's long-running request check is its watch and proxy verbs; only watch exists here).
 */
export function trackLongRunning(gauge: Gauge<string>) {
  const watch = async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const labels = interned(sharedLabels(ctx));
    gauge.inc(labels);
    try {
      await next();
    } finally {
      whenEnded(ctx, () => gauge.dec(labels));
    }
  };
  // Other requests pass straight on (no async frame of their own).
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> =>
    ctx.state.requestInfo?.verb === 'watch' ? watch(ctx, next) : next();
}

/** Label sets that open watches hold, one object per distinct set (bounded: cleared at 1,000). */
const labelSets = new Map<string, Record<string, string>>();

/**
 * The one shared object with `labels`' keys and values: a watch holds its labels until it
 * ends, and thousands of watches of a resource hold the same ones.
 */
function interned(labels: Record<string, string>): Record<string, string> {
  const key = Object.entries(labels).join('\n');
  const shared = labelSets.get(key);
  if (shared) return shared;
  if (labelSets.size >= 1000) labelSets.clear();
  labelSets.set(key, labels);
  return labels;
}

/** The `dry_run` label of a request's `dryRun` query value(s) (upstream metrics.cleanDryRun). */
export function dryRunLabel(value: string | string[] | undefined): string {
  if (value === undefined) return '';
  const values = Array.isArray(value) ? value : [value];
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

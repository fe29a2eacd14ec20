/**
 * Request metrics and access logs: apiserver_request_total and
 * apiserver_request_duration_seconds with upstream's labels (verb in upper case as upstream
 * reports it: GET, LIST, WATCH, POST, PUT, PATCH, DELETE, DELETECOLLECTION), plus one pino line
 * per request with a request id. The `dry_run` label is upstream's cleanDryRun: '' without
 * dryRun, the sorted distinct values joined by ',' when they are valid, else 'invalid'.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import type { ApiContext } from '../context.js';

export interface RequestMetrics {
  readonly requestTotal: Counter<string>;
  readonly requestDuration: Histogram<string>;
}

const VERBS: Record<string, string> = { create: 'POST', update: 'PUT', patch: 'PATCH', get: 'GET', list: 'LIST', watch: 'WATCH', delete: 'DELETE', deletecollection: 'DELETECOLLECTION' };

export function observe(metrics: RequestMetrics, logger: Logger) {
  return async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const started = process.hrtime.bigint();
    const requestId = ctx.get('X-Request-Id') || randomUUID();
    ctx.set('Audit-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const info = ctx.state.requestInfo;
      const code = String(ctx.respond === false ? ctx.res.statusCode : ctx.status);
      const labels = {
        verb: (info?.isResourceRequest ? VERBS[info.verb] : undefined) ?? ctx.method,
        dry_run: dryRunLabel(ctx.query.dryRun),
        group: info?.group ?? '',
        version: info?.version ?? '',
        resource: info?.resource ?? '',
        subresource: info?.subresource ?? '',
        scope: !info?.isResourceRequest ? '' : info.name ? 'resource' : info.namespace ? 'namespace' : 'cluster',
        component: 'apiserver',
      };
      metrics.requestTotal.inc({ ...labels, code });
      metrics.requestDuration.observe(labels, seconds);
      logger.info(
        { requestId, method: ctx.method, path: ctx.path, code: Number(code), ms: Math.round(seconds * 1000), user: ctx.state.user?.name, userAgent: ctx.get('User-Agent') },
        'request',
      );
    }
  };
}

/** The `dry_run` label of a request's `dryRun` query value(s) (upstream metrics.cleanDryRun). */
export function dryRunLabel(value: string | string[] | undefined): string {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

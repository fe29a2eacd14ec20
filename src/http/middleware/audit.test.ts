// The audit middleware on a bare Koa app: the Panic stage of an unexpected error, omitted
// stages, and the failed-authentication event.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { unauthorized } from '../../errors/api-error.js';
import type { ApiContext, ApiState } from '../context.js';
import { errorHandler } from './error-handler.js';
import { requestInfoMiddleware } from './request-info.js';
import type { AuditEvent } from '../../audit/event.js';
import { withAudit, withFailedAuthenticationAudit } from './audit.js';
import { parsePolicy, PolicyChecker } from '../../audit/policy.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serve `handler` behind the audit middleware with `policy`; returns the URL and the events. */
async function serve(
  policy: string,
  handler: (ctx: ApiContext) => void | Promise<void>,
): Promise<{ url: string; events: AuditEvent[] }> {
  const events: AuditEvent[] = [];
  const auditor = {
    checker: new PolicyChecker(parsePolicy(policy)),
    sink: { processEvent: (e: AuditEvent) => events.push(JSON.parse(JSON.stringify(e))) },
  };
  const app = new Koa<ApiState>();
  app.silent = true;
  app.use(errorHandler(pino({ level: 'silent' })));
  app.use(requestInfoMiddleware());
  app.use(withFailedAuthenticationAudit(auditor));
  app.use(async (ctx: ApiContext, next) => {
    if (ctx.get('Authorization') !== 'Bearer ok') throw unauthorized();
    ctx.state.user = { name: 'alice', uid: 'u', groups: ['system:authenticated'] };
    await next();
  });
  app.use(withAudit(auditor));
  app.use(handler);
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, events };
}

const policy = (rule: string) => `apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - ${rule}\n`;

describe('withAudit', () => {
  it('records Panic (not ResponseComplete) when the handler fails unexpectedly', async () => {
    const { url, events } = await serve(policy('level: Metadata'), () => {
      throw new Error('boom');
    });
    const res = await fetch(`${url}/api/v1/namespaces/default/pods`, { headers: { authorization: 'Bearer ok' } });
    expect(res.status).toBe(500);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'Panic']);
    expect(events[1].responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: "APIServer panic'd: boom",
      reason: 'InternalError',
      code: 500,
    });
  });

  it('honours omitStages, and records the response of a long-running subresource at ResponseStarted too', async () => {
    const { url, events } = await serve(policy('level: Metadata\n    omitStages: [RequestReceived]'), (ctx) => {
      ctx.body = 'log line\n';
    });
    await (
      await fetch(`${url}/api/v1/namespaces/default/pods/p/log`, { headers: { authorization: 'Bearer ok' } })
    ).text();
    expect(events.map((e) => [e.stage, e.verb, e.objectRef?.subresource, e.responseStatus?.code])).toEqual([
      ['ResponseStarted', 'get', 'log', 200],
      ['ResponseComplete', 'get', 'log', 200],
    ]);
  });
});

describe('withFailedAuthenticationAudit', () => {
  it('records a 401 once at ResponseStarted without a user, unless the stage is omitted', async () => {
    const { url, events } = await serve(policy('level: RequestResponse'), () => {});
    expect((await fetch(`${url}/api/v1/namespaces/default/pods`)).status).toBe(401);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      stage: 'ResponseStarted',
      verb: 'list',
      user: {},
      responseStatus: { code: 401, reason: 'Unauthorized' },
      responseObject: { kind: 'Status', code: 401 },
    });
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const omitted = await serve(policy('level: Metadata\n    omitStages: [ResponseStarted]'), () => {});
    expect((await fetch(`${omitted.url}/api/v1/namespaces/default/pods`)).status).toBe(401);
    expect(omitted.events).toEqual([]);
  });

  it('does not match rules naming users or groups', async () => {
    const { url, events } = await serve(policy('level: Metadata\n    userGroups: [system:unauthenticated]'), () => {});
    expect((await fetch(`${url}/api`)).status).toBe(401);
    expect(events).toEqual([]);
  });
});

// The request deadline on a bare Koa app: the 504 written at the deadline stands whatever the
// handler does afterwards (sets a body, throws), headers the handler set are not sent, the
// `timeout` parameter's arithmetic, and which requests are long-running.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiContext, ApiState } from '../context.js';
import { parseRequestInfo } from '../request-info.js';
import { requestListener } from '../request-listener.js';
import { errorHandler } from './error-handler.js';
import { requestInfoMiddleware } from './request-info.js';
import { deadlineOf, isLongRunning, requestDeadline, requestTimeoutMs, setRequestTimeout } from './request-deadline.js';
import type { ApiError } from '../../errors/api-error.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(app: Koa<ApiState>): Promise<string> {
  server = createServer(requestListener(app));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

describe('requestDeadline', () => {
  it("answers upstream's 504 at the deadline; the handler finishing later changes nothing and crashes nothing", async () => {
    const app = new Koa<ApiState>();
    app.silent = true;
    setRequestTimeout(app, 0.2);
    let handlerDone!: () => void;
    const lateWork = new Promise<void>((r) => (handlerDone = r));
    const timedOut: string[] = [];
    app.use((ctx: ApiContext, next) => {
      ctx.set('Audit-Id', 'outer');
      return next();
    });
    app.use(errorHandler(pino({ level: 'silent' })));
    app.use(requestInfoMiddleware());
    app.use(requestDeadline({ onTimeout: (ctx) => timedOut.push(ctx.path) }));
    app.use(async (ctx: ApiContext) => {
      ctx.set('X-Handler', 'inner');
      await new Promise((r) => setTimeout(r, 400));
      ctx.status = 201;
      ctx.body = { late: true };
      handlerDone();
      throw new Error('after the deadline');
    });
    const url = await serve(app);
    const res = await fetch(`${url}/api/v1/namespaces/default/configmaps`);
    expect(res.status).toBe(504);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('audit-id')).toBe('outer');
    expect(res.headers.get('x-handler')).toBeNull();
    expect(await res.text()).toBe(
      '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n',
    );
    expect(timedOut).toEqual(['/api/v1/namespaces/default/configmaps']);
    await lateWork;
    await new Promise((r) => setTimeout(r, 20));
    // The server still answers (nothing crashed), and nothing was written twice.
    expect((await fetch(`${url}/api/v1/namespaces/default/configmaps?timeout=10s`)).status).toBe(504);
  });

  it('tells expiry once, to onExpire first and then the signal; nothing once the request completed', async () => {
    const app = new Koa<ApiState>();
    app.silent = true;
    setRequestTimeout(app, 0.15);
    const heard: string[] = [];
    let lateSignal: AbortSignal | undefined;
    app.use(errorHandler(pino({ level: 'silent' })));
    app.use(requestInfoMiddleware());
    app.use(requestDeadline());
    app.use(async (ctx: ApiContext) => {
      const deadline = deadlineOf(ctx)!;
      const name = ctx.path.split('/').at(-1);
      deadline.onExpire(() => heard.push(`${name}: onExpire`));
      if (name === 'early') deadline.signal.addEventListener('abort', () => heard.push(`${name}: signal`));
      expect(deadline.expired).toBe(false);
      if (name !== 'fast') await new Promise((r) => setTimeout(r, 300));
      // A signal first read after the deadline passed is made aborted, with the 504 as reason.
      if (name === 'late') lateSignal = deadline.signal;
      ctx.body = 'done';
    });
    const url = await serve(app);
    expect((await fetch(`${url}/api/v1/namespaces/d/configmaps/fast`)).status).toBe(200);
    const answers = await Promise.all(
      ['early', 'late'].map(async (n) => (await fetch(`${url}/api/v1/namespaces/d/configmaps/${n}`)).status),
    );
    expect(answers).toEqual([504, 504]);
    await new Promise((r) => setTimeout(r, 300));
    // The fast request completed before its deadline: its callback never ran.
    expect(heard.filter((h) => h.startsWith('early'))).toEqual(['early: onExpire', 'early: signal']);
    expect(heard.filter((h) => !h.startsWith('early'))).toEqual(['late: onExpire']);
    expect(lateSignal?.aborted).toBe(true);
    expect((lateSignal?.reason as ApiError).code).toBe(504);
  });

  it('reads the timeout parameter as upstream: shorter positive values shorten, 0s or longer ones do not', () => {
    const ctx = (timeout?: string | string[]) =>
      ({ query: timeout === undefined ? {} : { timeout }, requestTimeoutMs: 60_000 }) as unknown as ApiContext;
    expect(requestTimeoutMs(ctx())).toBe(60_000);
    expect(requestTimeoutMs(ctx('1s'))).toBe(1000);
    expect(requestTimeoutMs(ctx(['2s', '1s']))).toBe(2000);
    expect(requestTimeoutMs(ctx('0s'))).toBe(60_000);
    expect(requestTimeoutMs(ctx('-1s'))).toBe(60_000);
    expect(requestTimeoutMs(ctx('2m'))).toBe(60_000);
    expect(requestTimeoutMs(ctx(''))).toBe(60_000);
    expect(() => requestTimeoutMs(ctx('1x'))).toThrow(
      'invalid timeout specified in the request URL - time: unknown unit "x" in duration "1x"',
    );
  });

  it.each([
    ['GET', '/api/v1/namespaces/d/pods?watch=true', true],
    ['GET', '/api/v1/watch/namespaces/d/pods', true],
    ['GET', '/api/v1/namespaces/d/pods/p/log', true],
    ['POST', '/api/v1/namespaces/d/pods/p/exec', true],
    ['POST', '/api/v1/namespaces/d/pods/p/attach', true],
    ['POST', '/api/v1/namespaces/d/pods/p/portforward', true],
    ['GET', '/api/v1/namespaces/d/services/s/proxy/x', true],
    ['GET', '/debug/pprof/profile', true],
    ['GET', '/api/v1/namespaces/d/pods', false],
    ['POST', '/api/v1/namespaces/d/pods/p/binding', false],
    ['PUT', '/api/v1/namespaces/d/pods/p/status', false],
    ['GET', '/healthz', false],
  ])('%s %s is long-running: %s', (method, url, expected) => {
    const [path, query] = url.split('?');
    expect(isLongRunning(parseRequestInfo(method, path, query === 'watch=true' ? 'true' : undefined))).toBe(expected);
  });
});

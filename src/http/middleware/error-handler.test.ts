import Koa from 'koa';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { notFound } from '../../errors/api-error.js';
import type { ApiContext, ApiState } from '../context.js';
import { errorHandler } from './error-handler.js';

async function call(handler: (ctx: ApiContext) => void, accept = 'application/json') {
  const app = new Koa<ApiState>();
  app.silent = true;
  app.use(errorHandler(pino({ level: 'silent' })));
  app.use(async (ctx) => handler(ctx));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/x`, { headers: { accept } });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  } finally {
    server.close();
  }
}

describe('errorHandler', () => {
  it('renders an ApiError as its Status', async () => {
    const res = await call(() => {
      throw notFound('pods', 'web');
    });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "web" not found',
      reason: 'NotFound',
      details: { name: 'web', kind: 'pods' },
      code: 404,
    });
  });

  it('turns an unexpected error into a 500 InternalError without a stack trace', async () => {
    const res = await call(() => {
      throw new TypeError('boom at secret place');
    });
    expect(res.status).toBe(500);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({
      kind: 'Status',
      reason: 'InternalError',
      code: 500,
      message: 'Internal error occurred: boom at secret place',
    });
    expect(res.text).not.toMatch(/\n\s+at |error-handler\.test/);
  });

  it('answers in JSON when the Accept header cannot be satisfied', async () => {
    const res = await call(() => {
      throw notFound('pods', 'web');
    }, 'text/html');
    expect(res.type).toBe('application/json');
    expect(JSON.parse(res.text).reason).toBe('NotFound');
  });
});

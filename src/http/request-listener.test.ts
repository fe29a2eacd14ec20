import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { requestListener, whenClosed } from './request-listener.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  server = undefined;
});

async function serve(app: Koa): Promise<string> {
  server = createServer(requestListener(app));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** GET `url`, read the first chunk, then drop the connection. */
async function readFirstChunkAndLeave(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.once('data', (chunk: Buffer) => {
        req.destroy();
        resolve(chunk.toString());
      });
    });
    req.on('error', () => undefined);
    req.once('error', reject);
    req.end();
  });
}

describe('requestListener', () => {
  it("leaves no listener of Koa's on-finished on the response (a watch would hold them for its life)", async () => {
    const app = new Koa();
    const seen: number[] = [];
    app.use((ctx) => {
      seen.push(
        ctx.res.listenerCount('finish') + ctx.res.listenerCount('end') + ctx.res.socket!.listenerCount('error'),
      );
      ctx.body = 'ok';
    });
    const url = await serve(app);
    expect(await (await fetch(url)).text()).toBe('ok');
    // Koa's own callback leaves ee-first's 'finish' and 'end' listeners, and one on the socket's 'error'.
    const plain = createServer(app.callback());
    plain.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    try {
      expect(await (await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}`)).text()).toBe('ok');
    } finally {
      plain.closeAllConnections();
      plain.close();
    }
    expect(seen[1] - seen[0]).toBe(3);
  });

  it('calls whenClosed callbacks once when a response that outlived its middleware is closed by the client', async () => {
    const app = new Koa();
    let closed = 0;
    app.use((ctx) => {
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
      ctx.res.write('open\n');
      whenClosed(ctx.res, () => closed++);
    });
    const url = await serve(app);
    expect(await readFirstChunkAndLeave(url)).toBe('open\n');
    await expect.poll(() => closed, { timeout: 5000 }).toBe(1);
  });

  it('calls a whenClosed callback registered after the response closed (the client left before the handler got there)', async () => {
    const app = new Koa();
    let closed = 0;
    let left!: () => void;
    const gone = new Promise<void>((r) => (left = r));
    app.use(async (ctx) => {
      ctx.respond = false;
      ctx.res.writeHead(200, { 'Content-Type': 'text/plain' });
      ctx.res.write('open\n');
      ctx.res.once('close', () => left());
      await gone;
      whenClosed(ctx.res, () => closed++);
    });
    const url = await serve(app);
    expect(await readFirstChunkAndLeave(url)).toBe('open\n');
    await expect.poll(() => closed, { timeout: 5000 }).toBe(1);
  });

  it('answers ordinary requests as Koa does', async () => {
    const app = new Koa();
    app.use((ctx) => {
      ctx.body = { path: ctx.path, q: ctx.query.q };
    });
    const url = await serve(app);
    const res = await fetch(`${url}/a/b?q=1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: '/a/b', q: '1' });
  });
});

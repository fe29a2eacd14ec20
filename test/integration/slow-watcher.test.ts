/**
 * A watch client that stops reading (its socket full) while changes keep coming: the server
 * terminates that watch once it stays more than 1,000 events behind for 5 s (as upstream's
 * cacher closes watchers that cannot keep up), counts it in
 * apiserver_terminated_watchers_total, and every other watcher still gets every event in order.
 */
import { connect, type TLSSocket } from 'node:tls';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv?.stop());

const terminated = async () => {
  const text = (await srv.api('GET', '/metrics')).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('apiserver_terminated_watchers_total{') && l.includes('resource="configmaps"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
};

/** An HTTP/1.1 watch on a raw TLS socket that reads its response head and then nothing. */
async function stalledWatch(path: string): Promise<TLSSocket> {
  const { hostname, port } = new URL(srv.url);
  const socket = connect({
    host: hostname,
    port: Number(port),
    ca: srv.running.caPem,
    servername: 'localhost',
    ALPNProtocols: ['http/1.1'],
  });
  await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n\r\n`);
  const head = await new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))),
  );
  expect(head).toMatch(/^HTTP\/1.1 200/);
  socket.pause();
  return socket;
}

describe('a watcher that cannot keep up', () => {
  it('is terminated while the others receive every event', async () => {
    const ns = '/api/v1/namespaces/default/configmaps';
    const start = (await srv.api('GET', ns)).body.metadata.resourceVersion as string;
    const before = await terminated();
    const stalled = await stalledWatch(`${ns}?watch=true&resourceVersion=${start}`);
    let last = '';
    stalled
      .on('data', (chunk: Buffer) => (last = (last + chunk.toString('latin1')).slice(-16)))
      .on('error', () => undefined);

    const healthy = await request(`${srv.url}${ns}?watch=true&resourceVersion=${start}`, {
      dispatcher: srv.agent,
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    const names: string[] = [];
    let tail = '';
    healthy.body.setEncoding('utf8');
    healthy.body.on('data', (chunk: string) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop()!;
      for (const line of lines) names.push(JSON.parse(line).object.metadata.name);
    });

    // 1,200 changes of ~32 KB: far more than socket buffers hold, and over 1,000 events behind.
    const value = 'x'.repeat(32 * 1024);
    const created: string[] = [];
    const write = async (i: number) => {
      const name = `big-${i}`;
      expect((await srv.api('POST', ns, { metadata: { name }, data: { value } })).status).toBe(201);
      created.push(name);
    };
    for (let i = 0; i < 1200; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => write(i + k)));
    // Past the 5 s grace, one more change finds the watcher still behind and ends it.
    await new Promise((r) => setTimeout(r, 5500));
    await write(1200);
    await expect.poll(terminated, { timeout: 5000 }).toBe(before + 1);

    // The healthy watcher got every one of the 1,201 events.
    await expect.poll(() => names.length, { timeout: 10_000 }).toBe(1201);
    expect([...names].sort()).toEqual([...created].sort());
    healthy.body.destroy();

    // Read again: what was already in flight arrives, then the response ends (the last chunk).
    stalled.resume();
    await expect.poll(() => last.endsWith('\r\n0\r\n\r\n'), { timeout: 10_000 }).toBe(true);
    stalled.destroy();
  }, 60_000);
});

// The server as a process whose log output fails: standard output on a full disk (/dev/full:
// every write is ENOSPC) with the audit log on it too, a reader that has gone (EPIPE) and a
// reader that stopped reading (the pipe fills: EAGAIN). At log level debug every request logs
// and every request is audited, yet /healthz and API requests all answer promptly, the process
// stays up, the lost log lines are counted in /metrics, and SIGTERM still stops it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { E2E_TOKEN } from '../helpers/server-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: RequestResponse\n';
const agent = new Agent({ connect: { rejectUnauthorized: false }, headersTimeout: 5_000, bodyTimeout: 5_000 });
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

/** Start the server with `stdout` as its standard output (a descriptor or 'pipe'); wait until /healthz answers. */
async function start(stdout: number | 'pipe', auditLogPath: string): Promise<Started> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-log-fail-'));
  await writeFile(join(dir, 'tokens.csv'), `${E2E_TOKEN},admin,uid-admin,"system:masters"\n`);
  await writeFile(join(dir, 'policy.yaml'), POLICY);
  const port = await freePort();
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'src/main.ts'),
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    '--storage-backend=memory',
    '--log-level=debug',
  ];
  args.push(
    `--cert-dir=${join(dir, 'certs')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--write-kubeconfig=',
    `--audit-log-path=${auditLogPath}`,
    `--audit-policy-file=${join(dir, 'policy.yaml')}`,
  );
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', stdout, 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });
  const url = `https://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before serving: ${stderr}`);
    const ok = await request(`${url}/healthz`, { dispatcher: agent }).then(
      async (res) => (await res.body.text()) === 'ok',
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not serve in 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, url, stderr: () => stderr };
}

/** One call; its status and how long it took (ms). Rejects when it took over the agent's 5 s. */
async function timed(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; ms: number; text: string }> {
  const t0 = performance.now();
  const res = await request(url + path, {
    method,
    dispatcher: agent,
    headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, ms: performance.now() - t0, text };
}

/**
 * 300 requests in batches of 10 at a time: health checks, creates, reads of what earlier batches
 * created, and lists. Every one must succeed within 2 s.
 */
async function hammer(url: string, tag: string): Promise<void> {
  const created: string[] = [];
  let slowest = 0;
  for (let batch = 0; batch < 30; batch++) {
    const calls = Array.from({ length: 10 }, (_, i) => {
      const name = `cm-${tag}-${batch}-${i}`;
      if (i < 3) return timed(url, 'GET', '/healthz').then((r) => [r, 200] as const);
      if (i < 6)
        return timed(url, 'POST', '/api/v1/namespaces/default/configmaps', {
          metadata: { name },
          data: { n: 'x'.repeat(500) },
        }).then((r) => [r, 201, name] as const);
      if (i < 8 && created.length)
        return timed(
          url,
          'GET',
          `/api/v1/namespaces/default/configmaps/${created[(batch * 7 + i) % created.length]}`,
        ).then((r) => [r, 200] as const);
      return timed(url, 'GET', '/api/v1/namespaces/default/configmaps?limit=20').then((r) => [r, 200] as const);
    });
    for (const [r, want, name] of await Promise.all(calls)) {
      expect(r.status, r.text).toBe(want);
      slowest = Math.max(slowest, r.ms);
      if (name) created.push(name);
    }
  }
  expect(slowest).toBeLessThan(2_000);
}

async function droppedLines(url: string): Promise<number> {
  const { text } = await timed(url, 'GET', '/metrics');
  const line = text.split('\n').find((l) => l.startsWith('ck_apiserver_log_lines_dropped_total '));
  return Number(line?.split(' ')[1]);
}

/** Still up a moment later, and SIGTERM stops it with exit code 0. */
async function stopsCleanly(server: Started): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  expect([server.child.exitCode, server.child.signalCode], server.stderr()).toEqual([null, null]);
  expect((await timed(server.url, 'GET', '/healthz')).text).toBe('ok');
  const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
  server.child.kill('SIGTERM');
  expect(await exited).toBe(0);
}

describe('when the log output fails, the server keeps serving', () => {
  it('with standard output and the audit log on a full disk (ENOSPC)', async () => {
    const full = openSync('/dev/full', 'w');
    cleanup.push(async () => closeSync(full));
    const server = await start(full, '/dev/full');
    await hammer(server.url, 'a');
    expect(await droppedLines(server.url)).toBeGreaterThan(300);
    // Said on stderr, once (the next note would come a minute later).
    expect(server.stderr().match(/log output failed \(ENOSPC: /g)).toHaveLength(1);
    await stopsCleanly(server);
  }, 90_000);

  it('with a reader of standard output that has gone (EPIPE), the audit log also on standard output', async () => {
    const server = await start('pipe', '-');
    server.child.stdout!.destroy();
    await hammer(server.url, 'a');
    expect(await droppedLines(server.url)).toBeGreaterThan(300);
    expect(server.stderr()).toMatch(/log output failed \(EPIPE: /);
    await stopsCleanly(server);
  }, 90_000);

  it('with a reader of standard output that stopped reading (a full pipe), the audit log also on standard output', async () => {
    const server = await start('pipe', '-');
    server.child.stdout!.pause(); // Node reads no more once its buffer is full; then the pipe fills
    await hammer(server.url, 'a');
    await hammer(server.url, 'b');
    await stopsCleanly(server);
  }, 90_000);
});

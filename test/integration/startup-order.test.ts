/**
 * What a script that starts the server and waits for it finds (issue 28): the kubeconfig and
 * the generated CA are written before the first request is answered, so a client that polls
 * `/healthz` and then reads `--write-kubeconfig`'s file always finds it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A port free at the time of asking. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

it('answers no request before the kubeconfig and the CA exist', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ck-startup-'));
  dirs.push(dir);
  const port = await freePort();
  const kubeconfig = join(dir, 'kubeconfig');
  const certs = join(dir, 'certs');
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'src/main.ts'),
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    `--cert-dir=${certs}`,
    `--write-kubeconfig=${kubeconfig}`,
    `--data-dir=${join(dir, 'data')}`,
    '--log-level=error',
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  const agent = new Agent({ connect: { rejectUnauthorized: false } });
  try {
    let seen: { kubeconfig: boolean; ca: boolean } | undefined;
    for (let i = 0; i < 4000 && !seen && child.exitCode === null; i++) {
      try {
        const res = await request(`https://127.0.0.1:${port}/healthz`, { dispatcher: agent, headersTimeout: 30_000 });
        await res.body.text();
        // Checked the moment the first answer arrives.
        seen = { kubeconfig: existsSync(kubeconfig), ca: existsSync(join(certs, 'ca.crt')) };
      } catch {
        await new Promise((r) => setTimeout(r, 5)); // not listening yet
      }
    }
    expect(seen).toEqual({ kubeconfig: true, ca: true });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    await agent.close();
  }
});

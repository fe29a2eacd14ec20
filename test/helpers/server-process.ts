/**
 * The server as users run it: a child process of `src/main.ts` (through tsx) with flags, whose
 * JSON log tells when and where it serves. Used by the e2e tests against etcd.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { request, type Agent } from 'undici';

export const E2E_TOKEN = 'e2e-admin-token';
const ROOT = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  readonly url: string;
  readonly kubeconfig: string;
  readonly caPem: string;
  readonly dir: string;
  readonly child: ChildProcess;
  /** Log lines seen so far (parsed JSON). */
  readonly logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Start `ck-apiserver` with `--etcd-servers` (or the memory store when empty) on a free port. */
export async function startServerProcess(etcdServers: string[], extraArgs: string[] = []): Promise<ServerProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-apiserver-e2e-'));
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(tokenFile, `${E2E_TOKEN},admin,uid-admin,"system:masters"\n`);
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'src/main.ts'),
    '--secure-port=0',
    '--bind-address=127.0.0.1',
    `--cert-dir=${join(dir, 'certs')}`,
    `--token-auth-file=${tokenFile}`,
    `--write-kubeconfig=${join(dir, 'kubeconfig')}`,
    ...(etcdServers.length ? [`--etcd-servers=${etcdServers.join(',')}`] : [`--data-dir=${join(dir, 'data')}`]),
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CK_LOG_LEVEL: 'info' },
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d.toString()));
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60s: ${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'ck-apiserver serving') {
          clearTimeout(timer);
          resolvePromise(String(entry.url));
        }
      } catch {
        /* not JSON */
      }
    });
  });
  const caPem = await readFile(join(dir, 'certs', 'ca.crt'), 'utf8');
  return {
    url,
    kubeconfig: join(dir, 'kubeconfig'),
    caPem,
    dir,
    child,
    logs,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One JSON request to `server` as the e2e admin through `agent`: the status and the parsed body. */
export async function callServer(server: ServerProcess, agent: Agent, method: string, path: string, body?: unknown) {
  const res = await request(server.url + path, {
    method: method as never,
    dispatcher: agent,
    headers: { authorization: `Bearer ${E2E_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/**
 * The server under test, started from the build (`dist/main.js`, run `npm run build` first) as
 * production runs it: warn-level logging (no per-request log lines), a free port, a token file.
 * BENCH_SERVER_NODE_ARGS passes Node flags to it (e.g. `--cpu-prof --cpu-prof-dir=prof`);
 * BENCH_SERVER_STDOUT=inherit shows its standard output (where `--trace-gc` writes);
 * BENCH_DIST names another build to run (a copy of `dist/` made before a change, for "before"
 * figures: `cp -r dist /tmp/dist-before`, then `BENCH_DIST=/tmp/dist-before`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, request } from 'undici';
import { sleep } from './stats.js';

/** The build the bench runs: BENCH_DIST, else this checkout's `dist/`. */
export const BUILD = resolve(process.env.BENCH_DIST ?? resolve(import.meta.dirname, '../dist'));

export interface BenchServer {
  readonly url: string;
  readonly caPem: string;
  readonly token: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/**
 * Start one server of `build` (a `dist/` directory, default {@link BUILD}) on `etcdServers` with
 * `extraArgs`; resolves once /readyz answers 200 (60 s at most).
 */
export async function startBenchServer(
  etcdServers: string[],
  extraArgs: string[] = [],
  build = BUILD,
): Promise<BenchServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-bench-'));
  const token = 'bench-admin-token';
  await writeFile(join(dir, 'tokens.csv'), `${token},admin,uid-admin,"system:masters"\n`);
  const port = await freePort();
  // The Node flags production runs with (`npm start`, the image's entrypoint), then the bench's.
  const nodeArgs = [
    '--min-semi-space-size=16',
    '--max-semi-space-size=32',
    ...(process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : []),
  ];
  const args = [
    ...nodeArgs,
    join(build, 'main.js'),
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    `--cert-dir=${join(dir, 'certs')}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--write-kubeconfig=',
    `--etcd-servers=${etcdServers.join(',')}`,
    '--log-level=warn',
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT === 'inherit' ? 'inherit' : 'ignore', 'inherit'],
  });
  const url = `https://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  let caPem = '';
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      caPem ||= await readFile(join(dir, 'certs', 'ca.crt'), 'utf8');
      const agent = new Agent({ connect: { ca: caPem } });
      const res = await request(`${url}/readyz`, { dispatcher: agent });
      await res.body.text();
      await agent.close();
      if (res.statusCode === 200) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server did not become ready in 60 s');
    await sleep(200);
  }
  return {
    url,
    caPem,
    token,
    child,
    async stop() {
      if (child.exitCode === null) {
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

/**
 * The etcd a bench runs on: the local `etcd` binary when it is on PATH (or PROFILE_ETCD=binary),
 * on free ports with its data under /dev/shm when present and no fsync; otherwise a container
 * (test/helpers/etcd.ts, Docker, ETCD_IMAGE). PROFILE_ETCD=container forces the container.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../test/helpers/etcd.js';
import { sleep } from './stats.js';

/** One etcd for the run: its client URL and how to stop it. */
export interface Etcd {
  readonly endpoint: string;
  /** The etcd process, when it runs here (not in a container). */
  readonly pid?: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The local etcd binary on free ports, its data in a temporary directory (/dev/shm when present), no fsync. */
async function startLocalEtcd(): Promise<Etcd> {
  const dir = await mkdtemp(join(spawnSync('test', ['-d', '/dev/shm']).status === 0 ? '/dev/shm' : tmpdir(), 'etcd-'));
  const [client, peer] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${client}`;
  const child: ChildProcess = spawn(
    'etcd',
    [
      '--name=profile',
      `--data-dir=${dir}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=profile=http://127.0.0.1:${peer}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`etcd exited with ${child.exitCode}`);
    const ok = await fetch(`${endpoint}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 300) throw new Error('etcd did not become healthy in 60 s');
    await sleep(200);
  }
  return {
    endpoint,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Start the etcd of the run (see the file comment). */
export function startAnyEtcd(): Promise<Etcd> {
  const binary = process.env.PROFILE_ETCD
    ? process.env.PROFILE_ETCD === 'binary'
    : spawnSync('etcd', ['--version']).status === 0;
  return binary ? startLocalEtcd() : startEtcd();
}

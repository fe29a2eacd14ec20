// The project's image on its embedded store, its data directory on a bind mount, as a container
// runtime runs it: the server is PID 1. After `docker kill` (SIGKILL, as an OOM kill or a failed
// liveness probe does) the same container starts again on the same directory, its new server
// again PID 1, and still has what was written before the kill. While it runs, a second container
// on the same directory is refused at start, naming the directory.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CkApiServerContainer, type StartedCkApiServerContainer } from '../../src/testcontainers/index.js';
import { buildProjectImage } from '../helpers/image.js';

const run = promisify(execFile);
const DATA = '/var/lib/ck-apiserver/data'; // where CkApiServerContainer points --data-dir
const PATH = '/api/v1/namespaces/default/configmaps';
const dataDir = mkdtempSync(join(tmpdir(), 'ck-docker-kill-'));
chmodSync(dataDir, 0o777); // the image runs as 65532
let image: string;
let server: StartedCkApiServerContainer;

beforeAll(async () => {
  image = await buildProjectImage();
  server = await new CkApiServerContainer(image).withBindMounts([{ source: dataDir, target: DATA }]).start();
}, 600_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const agent = new Agent({ connect: { ca: server.getCaPem(), rejectUnauthorized: true } });
  try {
    const res = await request(server.getUrl() + path, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${server.getToken()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: await res.body.json() };
  } finally {
    await agent.close();
  }
}

const state = async (): Promise<{ Running: boolean; ExitCode: number }> =>
  JSON.parse((await run('docker', ['inspect', '-f', '{{json .State}}', server.getId()])).stdout);

it('restarts after docker kill on the same data directory, its data intact', async () => {
  const created = await call('POST', PATH, { metadata: { name: 'before-kill' }, data: { kept: 'yes' } });
  expect(created.status).toBe(201);
  // The server holds the directory as PID 1 (what the lock file says): the case a PID file got wrong.
  expect(readFileSync(join(dataDir, 'ck-apiserver.lock'), 'utf8').trim()).toBe('1');

  await run('docker', ['kill', '--signal=KILL', server.getId()]);
  for (let i = 0; i < 100 && (await state()).Running; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await state()).toMatchObject({ Running: false, ExitCode: 137 });

  await server.restart(); // `docker restart`: the same container, on the same bind mount
  const read = await call('GET', `${PATH}/before-kill`);
  expect([read.status, read.body.data]).toEqual([200, { kept: 'yes' }]);
  expect(read.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);
  const again = await call('POST', PATH, { metadata: { name: 'after-restart' } });
  expect(again.status).toBe(201);
  expect((await state()).Running).toBe(true);
});

it('refuses a second container on the data directory while the first runs', async () => {
  const second = run(
    'docker',
    ['run', '--rm', '--network=none', '-v', `${dataDir}:${DATA}`, image, '--secure-port=6443', `--data-dir=${DATA}`],
    { timeout: 120_000 },
  );
  const failed = await second.then(
    () => undefined,
    (err: { code?: number; stderr?: string }) => err,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain(`the data directory ${DATA} is in use by process 1; one server per --data-dir`);
  // The first server never noticed.
  expect((await call('GET', `${PATH}/after-restart`)).status).toBe(200);
});

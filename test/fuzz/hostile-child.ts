/**
 * Child process of hostile-bodies.test.ts: starts a server, sends each hostile body many
 * times, and prints the statuses seen as one JSON line. If a body kills the process, the
 * parent sees the exit instead of the line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startServer } from '../../src/server.js';
import { HOSTILE_REQUESTS } from './hostile-requests.js';
import { loadConfig } from '../../src/config/load-config.js';

const rounds = Number(process.argv[2] ?? 20);
const dir = await mkdtemp(join(tmpdir(), 'ck-hostile-'));
await writeFile(join(dir, 'tokens.csv'), 'hostile-token,admin,uid-admin,"system:masters"\n');
const running = await startServer({
  ...loadConfig([], {}), // the flags' defaults
  securePort: 0,
  bindAddress: '127.0.0.1',
  certDir: join(dir, 'certs'),
  tokenAuthFile: join(dir, 'tokens.csv'),
  writeKubeconfig: '',
  etcdCompactionIntervalSeconds: 0,
  logLevel: 'silent',
  storageBackend: 'memory',
});
const agent = new Agent({ connect: { ca: running.caPem } });
const seen: Record<string, number[]> = {};
const send = async (method: string, path: string, body: string, contentType: string) => {
  const res = await request(running.url + path, {
    method: method as never,
    dispatcher: agent,
    headers: { authorization: 'Bearer hostile-token', 'content-type': contentType },
    body,
  });
  await res.body.text();
  return res.statusCode;
};
await send('POST', '/api/v1/namespaces/default/configmaps', '{"metadata":{"name":"target"}}', 'application/json');
for (let round = 0; round < rounds; round++) {
  for (const h of HOSTILE_REQUESTS) {
    const status = await send(h.method, h.path, h.body, h.contentType);
    const statuses = (seen[h.label] ??= []);
    if (!statuses.includes(status)) statuses.push(status);
  }
}
console.log(JSON.stringify(seen));
await agent.close();
await running.stop();
await rm(dir, { recursive: true, force: true });

/**
 * etcd stops answering: requests fail within seconds with 503/504 Status (never hang), the
 * readiness probe reports it, the process stays up, and service resumes when etcd is back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor, type Client } from '../helpers/api-client.js';
import { startEtcd, type StartedEtcd } from '../helpers/etcd.js';
import { run } from '../helpers/run.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

let etcd: StartedEtcd;
let server: ServerProcess;
let api: Client;
beforeAll(async () => {
  etcd = await startEtcd();
  server = await startServerProcess([etcd.endpoint]);
  api = clientFor(server);
});
afterAll(async () => {
  await api?.close();
  await server?.stop();
  await run('docker', ['unpause', etcd.container.getId()]);
  await etcd?.stop();
});

it('answers 503/504 within seconds while etcd is unreachable, and recovers', async () => {
  const path = '/api/v1/namespaces/default/configmaps';
  expect((await api.call('POST', path, { metadata: { name: 'before' } })).status).toBe(201);
  expect((await run('docker', ['pause', etcd.container.getId()])).code).toBe(0);
  try {
    for (const [method, body] of [['GET', undefined], ['POST', { metadata: { name: 'during' } }]] as const) {
      const started = Date.now();
      const res = await api.call(method, path, body);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect([503, 504]).toContain(res.status);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: expect.stringMatching(/^(ServiceUnavailable|Timeout)$/) });
      expect(res.body.details.retryAfterSeconds).toBeGreaterThan(0);
    }
    const ready = await run('curl', ['-sk', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', `${server.url}/readyz`]);
    expect(ready.stdout).toBe('500');
    expect(server.child.exitCode).toBeNull();
  } finally {
    await run('docker', ['unpause', etcd.container.getId()]);
  }
  let status = 0;
  for (let i = 0; i < 30 && status !== 200; i++) {
    status = (await api.call('GET', `${path}/before`)).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 500));
  }
  expect(status).toBe(200);
  // A write that timed out has an unknown outcome (as upstream): it may or may not have landed.
});

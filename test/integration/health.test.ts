// Health endpoints as upstream answers them: per-check paths, ?verbose, ?exclude, the warning for
// names that match no check, readyz failing once the server stops; /version from this build.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv?.stop());

const anonymous = { authorization: '' };

describe('health checks', () => {
  it('answers ok on each endpoint and each named check without a token', async () => {
    for (const path of [
      '/healthz',
      '/livez',
      '/readyz',
      '/livez/ping',
      '/livez/log',
      '/readyz/etcd',
      '/readyz/shutdown',
      '/healthz/etcd',
    ]) {
      const res = await srv.api('GET', path, undefined, anonymous);
      expect([path, res.status, res.text]).toEqual([path, 200, 'ok']);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    expect((await srv.api('GET', '/livez/etcd', undefined, anonymous)).status).toBe(404);
  });

  it('lists every check with ?verbose, skips excluded ones and warns about unknown names', async () => {
    const verbose = await srv.api('GET', '/readyz?verbose', undefined, anonymous);
    expect(verbose.text).toBe('[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n');
    const live = await srv.api('GET', '/livez?verbose=1', undefined, anonymous);
    expect(live.text).toBe('[+]ping ok\n[+]log ok\nlivez check passed\n');
    const excluded = await srv.api('GET', '/readyz?verbose&exclude=etcd&exclude=nope', undefined, anonymous);
    expect(excluded.status).toBe(200);
    expect(excluded.text).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]shutdown ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n',
    );
  });
});

describe('/version', () => {
  it("reports this checkout's commit and a real build date", async () => {
    const res = await srv.api('GET', '/version', undefined, anonymous);
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: import.meta.dirname })
      .toString()
      .trim();
    // By default the newest Kubernetes version the server follows (--emulated-version).
    expect(res.body).toMatchObject({
      major: '1',
      minor: '33',
      emulationMajor: '1',
      emulationMinor: '33',
      minCompatibilityMajor: '1',
      minCompatibilityMinor: '32',
      gitCommit: head,
      gitVersion: expect.stringMatching(/^v1\.33\.0\+ck-apiserver-\d+\.\d+\.\d+/),
    });
    expect(['clean', 'dirty']).toContain(res.body.gitTreeState);
    expect(Date.now() - Date.parse(res.body.buildDate)).toBeLessThan(365 * 24 * 3600 * 1000);
  });
});

describe('--emulated-version', () => {
  it('reports the version given, in /version and in the OpenAPI documents', async () => {
    const old = await startTestServer({ emulatedVersion: { major: 1, minor: 21 } });
    try {
      const res = await old.api('GET', '/version', undefined, anonymous);
      expect(res.body).toMatchObject({
        major: '1',
        minor: '21',
        emulationMinor: '21',
        gitVersion: expect.stringMatching(/^v1\.21\.0\+/),
      });
      expect((await old.api('GET', '/openapi/v3/api/v1')).body.info).toEqual({
        title: 'ck-apiserver',
        version: 'v1.21.0',
      });
    } finally {
      await old.stop();
    }
  });
});

describe('stopping', () => {
  it('fails readyz (shutdown) as soon as stop begins, while livez stays ok', async () => {
    const other = await startTestServer();
    other.running.deps.lifecycle.shuttingDown = true; // what stop() sets first
    const ready = await other.api('GET', '/readyz', undefined, anonymous);
    expect(ready.status).toBe(500);
    expect(ready.text).toBe(
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n',
    );
    expect((await other.api('GET', '/readyz/shutdown', undefined, anonymous)).text).toBe(
      'internal server error: process is shutting down\n',
    );
    expect((await other.api('GET', '/livez', undefined, anonymous)).status).toBe(200);
    await other.stop();
  });
});

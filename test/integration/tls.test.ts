/**
 * TLS versions, cipher suites and connection timeouts as a client sees them: `openssl s_client`
 * handshakes, and raw TLS sockets that stall while sending headers, idle, stream a watch or
 * send a body slowly. The header and idle timeouts are lowered (1 s and 2 s) so nothing waits
 * for upstream's 32 s and 90 s.
 */
import { execFile } from 'node:child_process';
import { connect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

interface Handshake {
  readonly ok: boolean;
  readonly cipher?: string;
  readonly output: string;
}

/** Run `openssl s_client` against the server with `args`; resolves with the outcome. */
function sClient(srv: TestServer, args: string[]): Promise<Handshake> {
  return new Promise((resolve) => {
    const child = execFile(
      'openssl',
      ['s_client', '-connect', `127.0.0.1:${srv.running.port}`, ...args],
      { timeout: 15_000 },
      (err, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const cipher = /Cipher is (\S+)/.exec(stdout)?.[1];
        resolve({ ok: !err && cipher !== undefined && cipher !== '(NONE)', cipher, output });
      },
    );
    child.stdin?.end();
  });
}

interface RawConnection {
  readonly socket: TLSSocket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves with ms since `connect` when the server closes the connection. */
  readonly closed: Promise<number>;
}

/** Open a TLS connection trusting the server's CA; resolves once the handshake is done. */
async function rawConnect(srv: TestServer): Promise<RawConnection> {
  const started = Date.now();
  const socket = connect({ host: '127.0.0.1', port: srv.running.port, ca: srv.running.caPem, servername: 'localhost' });
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => data, closed };
}

/** Resolves 'open' if `closed` has not settled after `ms`. */
const stillOpenAfter = (closed: Promise<unknown>, ms: number) =>
  Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), ms))]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TLS with the default settings', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ readHeaderTimeoutSeconds: 1, idleTimeoutSeconds: 2 });
  });
  afterAll(async () => srv?.stop());

  it('refuses RSA key exchange and CBC-SHA1 suites over TLS 1.2', async () => {
    const rsaKex = await sClient(srv, ['-tls1_2', '-cipher', 'AES128-SHA']);
    expect(rsaKex.ok).toBe(false);
    expect(rsaKex.output).toMatch(/handshake failure/);
    expect((await sClient(srv, ['-tls1_2', '-cipher', 'ECDHE-RSA-AES128-SHA'])).ok).toBe(false);
  });

  it('serves ECDHE with AES-GCM over TLS 1.2 with a certificate that verifies', async () => {
    const caFile = `${srv.dir}/certs/ca.crt`;
    const res = await sClient(srv, [
      '-tls1_2',
      '-cipher',
      'ECDHE-RSA-AES128-GCM-SHA256',
      '-CAfile',
      caFile,
      '-verify_return_error',
    ]);
    expect(res.ok).toBe(true);
    expect(res.cipher).toBe('ECDHE-RSA-AES128-GCM-SHA256');
    expect(res.output).toMatch(/Verify return code: 0 \(ok\)/);
    expect((await sClient(srv, ['-tls1_2', '-cipher', 'ECDHE-RSA-CHACHA20-POLY1305'])).cipher).toBe(
      'ECDHE-RSA-CHACHA20-POLY1305',
    );
  });

  it('refuses TLS 1.1 and accepts TLS 1.3', async () => {
    const old = await sClient(srv, ['-tls1_1']);
    expect(old.ok).toBe(false);
    const tls13 = await sClient(srv, ['-tls1_3']);
    expect(tls13.ok).toBe(true);
    expect(tls13.output).toMatch(/TLSv1\.3/);
  });

  it('drops a client that stalls in the middle of its headers, with 408', async () => {
    const conn = await rawConnect(srv);
    conn.socket.write('GET /api/v1/namespaces HTTP/1.1\r\nHost: localhost\r\n');
    const after = await conn.closed;
    expect(after).toBeGreaterThanOrEqual(900);
    expect(after).toBeLessThan(5000);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('drops a connection that never sends a request', async () => {
    const conn = await rawConnect(srv);
    const after = await conn.closed;
    expect(after).toBeGreaterThanOrEqual(900);
    expect(after).toBeLessThan(5000);
  });

  it('waits for a slow request body longer than the header timeout', async () => {
    const conn = await rawConnect(srv);
    const body = JSON.stringify({ metadata: { name: 'slow-body' }, data: { a: '1' } });
    conn.socket.write(
      `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    for (const part of [body.slice(0, 10), body.slice(10, 20)]) {
      conn.socket.write(part);
      await sleep(1000);
    }
    conn.socket.write(body.slice(20));
    await sleep(500);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect((await srv.api('GET', '/api/v1/namespaces/default/configmaps/slow-body')).status).toBe(200);
    conn.socket.destroy();
  });

  it('closes a kept-alive connection after the idle timeout, not before', async () => {
    const conn = await rawConnect(srv);
    conn.socket.write(
      `GET /api/v1/namespaces/default HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${TEST_TOKEN}\r\n\r\n`,
    );
    await sleep(300);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(await stillOpenAfter(conn.closed, 1200)).toBe('open');
    expect(await conn.closed).toBeLessThan(6000);
  });

  it('keeps a watch streaming for longer than the header timeout', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const list = await srv.api('GET', cms);
    const w = await openWatch(
      `${srv.url}${cms}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    expect(w.status).toBe(200);
    for (let i = 0; i < 5; i++) {
      await srv.api('POST', cms, { metadata: { name: `watched-${i}` } });
      const [ev] = await w.next(1);
      expect(ev).toMatchObject({ type: 'ADDED', object: { metadata: { name: `watched-${i}` } } });
      await sleep(600);
    }
    // 3 s after it opened, with a 1 s header timeout and a 2 s idle timeout, it still delivers.
    await srv.api('DELETE', `${cms}/watched-0`);
    expect((await w.next(1))[0]).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'watched-0' } } });
    expect(await stillOpenAfter(w.ended, 100)).toBe('open');
    w.close();
  });
});

describe('TLS with --tls-min-version and --tls-cipher-suites', () => {
  it('VersionTLS13 refuses TLS 1.2', async () => {
    const srv = await startTestServer({ tlsMinVersion: 'VersionTLS13' });
    try {
      expect((await sClient(srv, ['-tls1_2'])).ok).toBe(false);
      expect((await sClient(srv, ['-tls1_3'])).ok).toBe(true);
      expect((await srv.api('GET', '/api')).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it('serves exactly the suites named', async () => {
    const srv = await startTestServer({
      tlsCipherSuites: ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'],
    });
    try {
      expect((await sClient(srv, ['-tls1_2', '-cipher', 'ECDHE-RSA-AES128-SHA'])).cipher).toBe('ECDHE-RSA-AES128-SHA');
      expect((await sClient(srv, ['-tls1_2'])).cipher).toBe('ECDHE-RSA-AES128-SHA');
      expect((await sClient(srv, ['-tls1_2', '-cipher', 'ECDHE-RSA-AES128-GCM-SHA256'])).ok).toBe(false);
    } finally {
      await srv.stop();
    }
  });
});

describe('bad TLS flags', () => {
  it('end start-up with exit code 2 and the upstream message', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', '--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,AES128-SHA'],
        { cwd: root, timeout: 30_000 },
        (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "invalid --tls-cipher-suites: Cipher suite AES128-SHA not supported or doesn't exist",
    );
  });
});

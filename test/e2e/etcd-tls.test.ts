/**
 * etcd over TLS with client certificates required (etcd `--client-cert-auth`), reached with
 * upstream's `--etcd-cafile`, `--etcd-certfile` and `--etcd-keyfile`: a CA, etcd's serving
 * certificate and a client certificate are generated here; with all three files the server
 * stores, reads, watches and compacts; without the client certificate (or trusting another
 * CA) it fails to start within a bounded time with an error saying why, never hangs. A second
 * etcd serving TLS without asking for client certificates is used with `--etcd-cafile` alone.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_IMAGE } from '../helpers/etcd.js';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/in-process.js';
import { openWatch } from '../helpers/watch-stream.js';

const DAY_MS = 24 * 3600 * 1000;
const PATH = '/api/v1/namespaces/default/configmaps';

interface Pem {
  readonly cert: string;
  readonly key: string;
}

/** A certificate signed by `ca` (or a self-signed CA without one). */
async function issue(
  commonName: string,
  ca?: Pem,
  usage?: { serverAuth?: boolean; clientAuth?: boolean },
  hosts: readonly string[] = [],
): Promise<Pem> {
  type Extensions = NonNullable<NonNullable<Parameters<typeof generate>[1]>['extensions']>;
  const extensions: Extensions = ca
    ? [
        { name: 'basicConstraints' as const, cA: false },
        { name: 'keyUsage' as const, digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage' as const, ...usage },
        ...(hosts.length
          ? [
              {
                name: 'subjectAltName' as const,
                altNames: hosts.map((h) =>
                  /^[\d.]+$/.test(h) ? { type: 7 as const, ip: h } : { type: 2 as const, value: h },
                ),
              },
            ]
          : []),
      ]
    : [
        { name: 'basicConstraints' as const, cA: true, critical: true },
        { name: 'keyUsage' as const, keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ];
  const made = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + DAY_MS),
    ca: ca && { key: ca.key, cert: ca.cert },
    extensions,
  });
  return { cert: made.cert, key: made.private };
}

let dir: string;
let etcd: StartedTestContainer;
let endpoint: string;
const files = { ca: '', cert: '', key: '', otherCa: '' };
let serving: { ca: Pem; server: Pem };

/** Start etcd serving clients over TLS only, with `server` signed by `ca`; `clientCertAuth` requires client certificates. */
function startTlsEtcd(ca: Pem, server: Pem, clientCertAuth: boolean): Promise<StartedTestContainer> {
  const publicImage = ETCD_IMAGE.startsWith('quay.io/coreos/etcd');
  return (
    new GenericContainer(ETCD_IMAGE)
      .withEntrypoint([publicImage ? '/usr/local/bin/etcd' : '/usr/bin/etcd'])
      .withCommand([
        '--name=tls',
        '--data-dir=/tmp/etcd-data',
        ...(clientCertAuth ? ['--client-cert-auth=true', '--trusted-ca-file=/etc/etcd/ca.crt'] : []),
        '--cert-file=/etc/etcd/server.crt',
        '--key-file=/etc/etcd/server.key',
        '--listen-client-urls=https://0.0.0.0:2379',
        '--advertise-client-urls=https://127.0.0.1:2379',
        '--listen-peer-urls=http://127.0.0.1:2380',
        '--initial-advertise-peer-urls=http://127.0.0.1:2380',
        '--initial-cluster=tls=http://127.0.0.1:2380',
        '--unsafe-no-fsync',
      ])
      .withCopyContentToContainer([
        { content: ca.cert, target: '/etc/etcd/ca.crt' },
        { content: server.cert, target: '/etc/etcd/server.crt' },
        { content: server.key, target: '/etc/etcd/server.key', mode: 0o600 },
      ])
      .withTmpFs({ '/tmp/etcd-data': 'rw' })
      .withExposedPorts(2379)
      // /health needs a client certificate too: wait for etcd's own log line instead.
      .withWaitStrategy(Wait.forLogMessage(/ready to serve client requests/).withStartupTimeout(60_000))
      .start()
  );
}

beforeAll(async () => {
  // The host a mapped port is reached on (TESTCONTAINERS_HOST_OVERRIDE here) is in the SANs.
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
  const ca = await issue('etcd-ca');
  const [server, client, otherCa] = await Promise.all([
    issue('etcd', ca, { serverAuth: true, clientAuth: true }, [...new Set(['localhost', '127.0.0.1', host])]),
    issue('ck-apiserver-etcd-client', ca, { clientAuth: true }),
    issue('another-ca'),
  ]);
  serving = { ca, server };
  dir = await mkdtemp(join(tmpdir(), 'ck-etcd-tls-'));
  Object.assign(files, {
    ca: join(dir, 'ca.crt'),
    cert: join(dir, 'client.crt'),
    key: join(dir, 'client.key'),
    otherCa: join(dir, 'other-ca.crt'),
  });
  await Promise.all([
    writeFile(files.ca, ca.cert),
    writeFile(files.cert, client.cert),
    writeFile(files.key, client.key, { mode: 0o600 }),
    writeFile(files.otherCa, otherCa.cert),
  ]);
  etcd = await startTlsEtcd(ca, server, true);
  endpoint = `https://127.0.0.1:${etcd.getMappedPort(2379)}`;
});

afterAll(async () => {
  await etcd?.stop({ remove: true, timeout: 2_000 });
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('with --etcd-cafile, --etcd-certfile and --etcd-keyfile', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({
      etcdServers: [endpoint],
      etcdCaFile: files.ca,
      etcdCertFile: files.cert,
      etcdKeyFile: files.key,
    });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('creates and reads back a ConfigMap, and a watch sees the next change', async () => {
    const created = await srv.api('POST', PATH, { metadata: { name: 'over-tls' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    const read = await srv.api('GET', `${PATH}/over-tls`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ a: '1' });
    const watch = await openWatch(
      `${srv.url}${PATH}?watch=true&resourceVersion=${read.body.metadata.resourceVersion}`,
      TEST_TOKEN,
      srv.agent,
    );
    try {
      expect(watch.status).toBe(200);
      expect((await srv.api('PUT', `${PATH}/over-tls`, { ...read.body, data: { a: '2' } })).status).toBe(200);
      const [event] = await watch.next(1, 10_000);
      expect(event).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'over-tls' }, data: { a: '2' } } });
    } finally {
      watch.close();
    }
  });

  it('compacts, probes and reads maintenance status on the same TLS client', async () => {
    const kv = srv.running.deps.kv;
    const revision = await kv.currentRevision();
    await kv.compact(revision);
    await expect(kv.range({ start: 'x', revision: revision - 1 })).rejects.toMatchObject({ code: 'Compacted' });
    expect(await kv.dbSizeBytes?.()).toBeGreaterThan(0);
    const ready = await srv.api('GET', '/readyz?verbose');
    expect(ready.status, ready.text).toBe(200);
  });
});

describe('etcd refuses the connection', () => {
  /** Start a server with `overrides`; resolves with its start-up error and how long it took. */
  async function failedStart(
    overrides: Parameters<typeof startTestServer>[0],
  ): Promise<{ message: string; ms: number }> {
    const started = Date.now();
    const outcome = await startTestServer({ etcdServers: [endpoint], ...overrides }).then(
      async (srv) => {
        await srv.stop();
        return new Error('the server started');
      },
      (err: unknown) => err as Error,
    );
    return { message: String(outcome?.message), ms: Date.now() - started };
  }

  it('without a client certificate: start-up fails within the storage deadline, saying why', async () => {
    const { message, ms } = await failedStart({ etcdCaFile: files.ca });
    console.log(`no client certificate: failed in ${ms} ms: ${message}`);
    expect(message).not.toBe('the server started');
    expect(message).toMatch(/etcd unavailable/);
    expect(message).toMatch(/certificate|handshake|tls|ssl|alert/i);
    expect(ms).toBeLessThan(15_000);
  });

  it("trusting another CA: start-up fails, naming etcd's certificate", async () => {
    const { message, ms } = await failedStart({
      etcdCaFile: files.otherCa,
      etcdCertFile: files.cert,
      etcdKeyFile: files.key,
    });
    console.log(`wrong CA: failed in ${ms} ms: ${message}`);
    expect(message).toMatch(/certificate/i);
    expect(ms).toBeLessThan(15_000);
  });

  it('a missing file fails at once, naming it', async () => {
    const { message, ms } = await failedStart({
      etcdCaFile: join(dir, 'absent.crt'),
      etcdCertFile: files.cert,
      etcdKeyFile: files.key,
    });
    expect(message).toContain(`cannot read --etcd-cafile ${join(dir, 'absent.crt')}`);
    expect(ms).toBeLessThan(2_000);
  });
});

describe('with --etcd-cafile only, on an etcd that asks no client certificate', () => {
  let plainTls: StartedTestContainer;
  let srv: TestServer;
  beforeAll(async () => {
    plainTls = await startTlsEtcd(serving.ca, serving.server, false);
    srv = await startTestServer({
      etcdServers: [`https://127.0.0.1:${plainTls.getMappedPort(2379)}`],
      etcdCaFile: files.ca,
    });
  });
  afterAll(async () => {
    await srv?.stop();
    await plainTls?.stop({ remove: true, timeout: 2_000 });
  });

  it('creates and reads back a ConfigMap', async () => {
    expect((await srv.api('POST', PATH, { metadata: { name: 'server-tls' }, data: { b: '1' } })).status).toBe(201);
    expect((await srv.api('GET', `${PATH}/server-tls`)).body.data).toEqual({ b: '1' });
  });
});

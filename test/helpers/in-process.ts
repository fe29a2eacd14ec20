/**
 * An in-process server on the embedded memory store (or on etcd when `etcdServers` is given),
 * over real HTTPS, plus a small typed client for tests: `api(method, path, body?, headers?)`
 * answers `{ status, headers, body, text }` with the body parsed as JSON when it is JSON.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { loadConfig } from '../../src/config/load-config.js';

export const TEST_TOKEN = 'test-admin-token';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface TestServer {
  readonly running: RunningServer;
  readonly url: string;
  readonly dir: string;
  readonly agent: Agent;
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  stop(): Promise<void>;
}

/** Start a server with a token file holding TEST_TOKEN (group system:masters). */
export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'ck-apiserver-test-'));
  const tokenFile = join(dir, 'tokens.csv');
  await writeFile(tokenFile, `${TEST_TOKEN},admin,uid-admin,"system:masters"\nother-token,bob,uid-bob\n`);
  const config: ServerConfig = {
    ...loadConfig([], {}), // the flags' defaults
    securePort: 0,
    bindAddress: '127.0.0.1',
    certDir: join(dir, 'certs'),
    tokenAuthFile: tokenFile,
    writeKubeconfig: join(dir, 'kubeconfig'),
    etcdCompactionIntervalSeconds: 0,
    logLevel: 'silent',
    storageBackend: overrides.etcdServers?.length ? 'etcd3' : 'memory',
    // The server schedules pods by default; a test of one resource's API does not want its pods
    // changed under it, so the scheduler runs only in tests with nodes or that ask for it.
    scheduler: overrides.simulatedNodes ? 'auto' : 'false',
    ...overrides,
  };
  const running = await startServer(config);
  const agent = new Agent({ connect: { ca: running.caPem, rejectUnauthorized: true }, pipelining: 0 });
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const hasBody = body !== undefined;
    const res = await request(running.url + path, {
      method: method as never,
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    if (String(res.headers['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as any, text };
  };
  return {
    running,
    url: running.url,
    dir,
    agent,
    api,
    async stop() {
      await agent.destroy();
      await running.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Write a kubeconfig for `srv` under its directory (`<name>.kubeconfig`) that authenticates
 * with `token` (the admin's by default), or with `cert` (a client certificate and its key, PEM)
 * when given, and defaults to `namespace`; returns its path.
 */
export async function writeKubeconfig(
  srv: TestServer,
  name: string,
  {
    token = TEST_TOKEN,
    namespace = 'default',
    cert,
  }: { token?: string; namespace?: string; cert?: { certPem: string; keyPem: string } } = {},
): Promise<string> {
  const file = join(srv.dir, `${name}.kubeconfig`);
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  const user = cert ? { 'client-certificate-data': b64(cert.certPem), 'client-key-data': b64(cert.keyPem) } : { token };
  await writeFile(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'ck', cluster: { server: srv.url, 'certificate-authority-data': b64(srv.running.caPem ?? '') } },
      ],
      users: [{ name: 'user', user }],
      contexts: [{ name: 'user', context: { cluster: 'ck', user: 'user', namespace } }],
      'current-context': 'user',
    }),
  );
  return file;
}

/**
 * Register beforeAll/afterAll hooks that start and stop a test server for this file, and
 * return a handle that forwards to it once started.
 */
export function useTestServer(overrides: Partial<ServerConfig> = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(overrides);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return new Proxy({} as TestServer, {
    get(_target, prop) {
      if (!server) throw new Error('the test server is not started yet (use it inside tests or hooks)');
      return server[prop as keyof TestServer];
    },
  });
}

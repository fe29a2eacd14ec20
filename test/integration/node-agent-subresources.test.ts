/**
 * The node-agent subresources (pods/log, exec, attach, portforward, proxy; nodes/proxy;
 * services/proxy): routed and answered as upstream 1.10 answers them, with a fake node agent
 * (a local HTTPS server) and a fake endpoint (a local HTTP server).
 */
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
/** A non-loopback address of this host for the fake endpoint: upstream refuses loopback endpoint IPs. */
const hostIp =
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address ?? '127.0.0.1';
const ns = '/api/v1/namespaces/default';
const pod = (name: string, containers: string[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })), ...extra },
});
const node = (name: string, port: number) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: {
    addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
    daemonEndpoints: { agentEndpoint: { Port: port } },
  },
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** Send a raw HTTP/1.1 upgrade request over TLS; resolves with the first bytes answered and the socket. */
async function upgrade(path: string, token = TEST_TOKEN) {
  const url = new URL(srv.url);
  const socket = tlsConnect({
    host: url.hostname,
    port: Number(url.port),
    ca: srv.running.caPem,
    ALPNProtocols: ['http/1.1'],
  });
  await new Promise((r) => socket.once('secureConnect', r));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nContent-Length: 0\r\n\r\n`,
  );
  const first = await new Promise<string>((resolve) => {
    let text = '';
    const onData = (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('\r\n\r\n') && (text.startsWith('HTTP/1.1 101') || /\}\s*$/.test(text))) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('end', () => resolve(text));
  });
  return { first, socket };
}

let agent: HttpsServer;
let backend: HttpServer;
const agentSaw: string[] = [];

beforeAll(async () => {
  const [cert, key] = await Promise.all(
    ['apiserver.crt', 'apiserver.key'].map((f) => readFile(join(srv.dir, 'certs', f), 'utf8')),
  );
  agent = createHttpsServer({ cert, key }, (req, res) => {
    agentSaw.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/containerLogs/default/onnode/app')) return res.end('line 1\nline 2\n');
    if (req.url?.startsWith('/containerLogs/')) return res.writeHead(404).end('container not found');
    res.end(`agent ${req.url}`);
  });
  agent.on('upgrade', (req, socket) => {
    agentSaw.push(`UPGRADE ${req.method} ${req.url} ${req.headers.upgrade} auth=${req.headers.authorization ?? ''}`);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
    socket.pipe(socket);
  });
  backend = createHttpServer((req, res) => res.end(`backend ${req.method} ${req.url}`));
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', () => r()));
  await new Promise<void>((r) => backend.listen(0, hostIp, () => r()));
  const deadPort = await closedPort();
  for (const body of [node('agent', (agent.address() as AddressInfo).port), node('dead', deadPort)])
    expect((await srv.api('POST', '/api/v1/nodes', body)).status).toBe(201);
  const pods = [
    pod('unscheduled', ['app']),
    pod('two', ['a', 'b'], { initContainers: [{ name: 'init', image: 'busybox' }] }),
    pod('onnode', ['app'], { nodeName: 'agent' }),
    pod('ondead', ['app'], { nodeName: 'dead' }),
    pod('onghost', ['app'], { nodeName: 'ghost' }),
  ];
  for (const body of pods) expect((await srv.api('POST', `${ns}/pods`, body)).status).toBe(201);
});

afterAll(async () => {
  agent?.closeAllConnections();
  backend?.closeAllConnections();
  await Promise.all([agent, backend].map((s) => s && new Promise((r) => s.close(r))));
});

describe('pods/log', () => {
  it('answers an unscheduled pod with no content (upstream: no location, 204)', async () => {
    const res = await srv.api('GET', `${ns}/pods/unscheduled/log`);
    expect([res.status, res.text]).toEqual([204, '']);
  });

  it('names the containers to choose from, or refuses an unknown one', async () => {
    const choose = await srv.api('GET', `${ns}/pods/two/log`);
    expect([choose.status, choose.body.message]).toEqual([
      400,
      'a container name must be specified for pod two, choose one of: [a b] or one of the init containers: [init]',
    ]);
    const unknown = await srv.api('GET', `${ns}/pods/two/log?container=zz`);
    expect([unknown.status, unknown.body.reason, unknown.body.message]).toEqual([
      400,
      'BadRequest',
      'container zz is not valid for pod two',
    ]);
  });

  it('is 404 for a missing pod or node and 422 for invalid options', async () => {
    expect((await srv.api('GET', `${ns}/pods/nope/log`)).body.message).toBe('pods "nope" not found');
    expect((await srv.api('GET', `${ns}/pods/onghost/log`)).body).toMatchObject({
      code: 404,
      message: 'nodes "ghost" not found',
    });
    const bad = await srv.api('GET', `${ns}/pods/onnode/log?tailLines=-1`);
    expect([bad.status, bad.body.message]).toEqual([
      422,
      'PodLogOptions "onnode" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it("streams the agent's containerLogs with the log options passed on", async () => {
    const res = await srv.api('GET', `${ns}/pods/onnode/log?follow=true&tailLines=5&timestamps=1&limitBytes=100`);
    expect([res.status, res.text, res.headers['content-type']]).toEqual([
      200,
      'line 1\nline 2\n',
      'text/plain; charset=utf-8',
    ]);
    expect(agentSaw).toContain(
      'GET /containerLogs/default/onnode/app?follow=true&limitBytes=100&tailLines=5&timestamps=true',
    );
  });

  it('answers an unreachable agent quickly with a 500 naming the address and the node', async () => {
    const started = Date.now();
    const res = await srv.api('GET', `${ns}/pods/ondead/log`);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(res.status).toBe(500);
    expect(res.body.message).toMatch(
      /^Get https:\/\/127\.0\.0\.1:\d+\/containerLogs\/default\/ondead\/app: dial tcp 127\.0\.0\.1:\d+: getsockopt: connection refused$/,
    );
    expect(res.body.details).toEqual({ name: 'dead', kind: 'nodes' });
  });
});

describe('pods/exec, attach and portforward', () => {
  it('are 400 for an unscheduled pod, over POST and GET', async () => {
    for (const [method, sub] of [
      ['POST', 'exec?command=ls&stdout=1'],
      ['GET', 'exec?command=ls'],
      ['POST', 'attach'],
      ['POST', 'portforward'],
      ['GET', 'portforward'],
    ]) {
      const res = await srv.api(method, `${ns}/pods/unscheduled/${sub}`);
      expect([method, sub, res.status, res.body.message]).toEqual([
        method,
        sub,
        400,
        'pod unscheduled does not have a host assigned',
      ]);
    }
  });

  it('check the container as logs do, and refuse other methods', async () => {
    expect((await srv.api('POST', `${ns}/pods/two/exec?command=ls`)).body.message).toMatch(
      /^a container name must be specified for pod two, choose one of: \[a b\]/,
    );
    expect((await srv.api('POST', `${ns}/pods/two/attach?container=zz`)).body.message).toBe(
      'container zz is not valid for pod two',
    );
    expect((await srv.api('PUT', `${ns}/pods/onnode/exec`, {})).status).toBe(405);
  });

  it('require an upgrade for a scheduled pod', async () => {
    const res = await srv.api('POST', `${ns}/pods/onnode/exec?command=ls&stdout=1`);
    expect([res.status, res.body.message]).toEqual([400, 'Upgrade request required']);
  });

  it('pass the upgrade through to the agent and pipe the connection', async () => {
    const { first, socket } = await upgrade(`${ns}/pods/onnode/exec?command=echo&command=hi&stdout=true&tty=false`);
    expect(first.startsWith('HTTP/1.1 101 Switching Protocols')).toBe(true);
    const echoed = new Promise<string>((r) => socket.once('data', (d) => r(d.toString())));
    socket.write('ping');
    expect(await echoed).toBe('ping');
    socket.destroy();
    expect(agentSaw).toContain('UPGRADE POST /exec/default/onnode/app?command=echo&command=hi&output=1 SPDY/3.1 auth=');
  });

  it('answer an unreachable agent quickly with upstream\'s 500 "error dialing backend"', async () => {
    const started = Date.now();
    const { first, socket } = await upgrade(`${ns}/pods/ondead/portforward`);
    socket.destroy();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(first.startsWith('HTTP/1.1 500')).toBe(true);
    const status = JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4));
    expect(status.message).toMatch(
      /^error dialing backend: dial tcp 127\.0\.0\.1:\d+: getsockopt: connection refused$/,
    );
    expect(status.details).toEqual({ name: 'dead', kind: 'nodes' });
  });

  it('need credentials like every route (401)', async () => {
    const { first, socket } = await upgrade(`${ns}/pods/onnode/exec?command=ls`, 'wrong');
    socket.destroy();
    expect(first.startsWith('HTTP/1.1 401')).toBe(true);
    for (const path of [
      `${ns}/pods/onnode/log`,
      `${ns}/pods/onnode/proxy/x`,
      '/api/v1/nodes/agent/proxy/',
      `${ns}/services/web/proxy`,
    ]) {
      const res = await request(srv.url + path, { dispatcher: srv.agent });
      await res.body.text();
      expect([path, res.statusCode]).toEqual([path, 401]);
    }
  });
});

describe('proxies', () => {
  it('pods/proxy refuses a pod without an IP as upstream (400 address not allowed)', async () => {
    const res = await srv.api('GET', `${ns}/pods/unscheduled:8080/proxy/x`);
    expect([res.status, res.body.message]).toEqual([400, 'address not allowed']);
    expect((await srv.api('GET', `${ns}/pods/nope/proxy/`)).status).toBe(404);
  });

  it('nodes/proxy forwards to the agent with the path and query', async () => {
    const res = await srv.api('GET', '/api/v1/nodes/agent/proxy/healthz/sub/?verbose=1');
    expect([res.status, res.text]).toEqual([200, 'agent /healthz/sub/?verbose=1']);
    const dead = await srv.api('GET', '/api/v1/nodes/dead/proxy/healthz');
    expect(dead.status).toBe(503);
    expect(dead.text).toMatch(
      /^Error: 'dial tcp 127\.0\.0\.1:\d+: getsockopt: connection refused'\nTrying to reach: 'https:\/\/127\.0\.0\.1:\d+\/healthz'$/,
    );
    expect((await srv.api('GET', '/api/v1/nodes/none/proxy/')).body.message).toBe('nodes "none" not found');
  });

  it('services/proxy is 503 without endpoints and forwards to an endpoint address', async () => {
    const port = (backend.address() as AddressInfo).port;
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web' },
      spec: { ports: [{ port: 80, targetPort: port }] },
    };
    expect((await srv.api('POST', `${ns}/services`, svc)).status).toBe(201);
    expect((await srv.api('GET', `${ns}/services/missing/proxy/`)).body.message).toBe('services "missing" not found');
    const none = await srv.api('GET', `${ns}/services/web/proxy/`);
    expect([none.status, none.body.reason, none.body.message]).toEqual([
      503,
      'ServiceUnavailable',
      'no endpoints available for service "web"',
    ]);
    const eps = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'web' },
      subsets: [{ addresses: [{ ip: hostIp }], ports: [{ port }] }],
    };
    expect((await srv.api('POST', `${ns}/endpoints`, eps)).status).toBe(201);
    const res = await srv.api('POST', `${ns}/services/web:80/proxy/hello/?x=1`, { a: 1 });
    expect([res.status, res.text]).toEqual([200, 'backend POST /hello/?x=1']);
    const noPort = await srv.api('GET', `${ns}/services/web:81/proxy/`);
    expect([noPort.status, noPort.body.message]).toEqual([503, 'no service port 81 found for service "web"']);
  });
});

describe('discovery', () => {
  it('lists the subresources as upstream 1.10 (connectors without verbs) and aggregated discovery with verbs', async () => {
    const list = (await srv.api('GET', '/api/v1')).body.resources as { name: string; verbs: string[]; kind: string }[];
    const of = (name: string) => list.find((r) => r.name === name);
    expect(of('pods/log')).toMatchObject({ kind: 'Pod', verbs: ['get'] });
    for (const name of ['pods/exec', 'pods/attach', 'pods/portforward', 'pods/proxy', 'nodes/proxy', 'services/proxy'])
      expect(of(name)?.verbs).toEqual([]);
    const agg = await srv.api('GET', '/api', undefined, {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
    const pods = agg.body.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
    const verbsOf = (s: string) => pods.subresources.find((x: { subresource: string }) => x.subresource === s)?.verbs;
    expect([verbsOf('exec'), verbsOf('log'), verbsOf('proxy')]).toEqual([
      ['create', 'get'],
      ['get'],
      ['create', 'delete', 'get', 'patch', 'update'],
    ]);
  });
});

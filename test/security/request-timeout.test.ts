// --request-timeout and the `timeout` query parameter (upstream WithRequestDeadline and the
// timeout filter): a request whose body trickles in is answered 504 Timeout at its deadline and
// gives its max-in-flight slot back, over HTTP/1.1 and HTTP/2; a body still arriving after an
// early answer is cut at the deadline; watches are not cut; `timeout` shortens the deadline and
// an invalid one is 400.
import { request as httpsRequest } from 'node:https';
import { connect as h2connect, constants as h2 } from 'node:http2';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { TEST_TOKEN, useTestServer, type TestServer } from '../helpers/in-process.js';

const CMS = '/api/v1/namespaces/default/configmaps';
/** Upstream's timeout writer output: the bare Status Go's json encoder writes, then a newline. */
const TIMEOUT_BODY =
  '{"metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}\n';

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  text: string;
}

/**
 * A POST over HTTP/1.1 whose body (announced as 100 KB) trickles in one byte every 100 ms
 * until the server answers. `closed` resolves when the server has closed the connection.
 */
function slowPost(
  srv: TestServer,
  path: string,
  token = TEST_TOKEN,
): { answer: Promise<Answer>; closed: Promise<void> } {
  const url = new URL(srv.url + path);
  const req = httpsRequest({
    host: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    method: 'POST',
    ca: srv.running.caPem,
    agent: false,
    // (a client that keeps its connection: the server decides whether to close it)
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': '100000',
      accept: 'application/json',
      connection: 'keep-alive',
    },
  });
  req.on('error', () => undefined);
  req.write('{');
  const trickle = setInterval(() => req.write(' '), 100);
  const closed = new Promise<void>((resolve) => req.on('socket', (s) => s.once('close', () => resolve())));
  closed.then(() => clearInterval(trickle));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      clearInterval(trickle);
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
  });
  return { answer, closed };
}

/** The same over HTTP/2; `rstCode` resolves with the code the stream was closed with. */
function slowPostH2(
  srv: TestServer,
  path: string,
): { answer: Promise<Answer>; rstCode: Promise<number>; close(): void } {
  const session = h2connect(srv.url, { ca: srv.running.caPem });
  session.on('error', () => undefined);
  const stream = session.request({
    ':method': 'POST',
    ':path': path,
    authorization: `Bearer ${TEST_TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json',
  });
  stream.on('error', () => undefined);
  stream.write('{');
  const trickle = setInterval(() => !stream.destroyed && stream.write(' '), 100);
  const rstCode = new Promise<number>((resolve) => stream.on('close', () => resolve(stream.rstCode ?? -1)));
  rstCode.then(() => clearInterval(trickle));
  const answer = new Promise<Answer>((resolve) => {
    let headers: Record<string, unknown> = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      clearInterval(trickle);
      headers = h;
    });
    stream.on('data', (c: string) => (text += c));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, text }));
  });
  return { answer, rstCode, close: () => session.close() };
}

/** Mutating requests until one is refused 429 (the slow requests hold every mutating slot). */
async function waitForFullSlots(srv: TestServer): Promise<number> {
  let status = 0;
  for (let i = 0; i < 100 && status !== 429; i++) {
    status = (await srv.api('POST', `${CMS}?dryRun=All`, configMap('probe'))).status;
    if (status !== 429) await new Promise((r) => setTimeout(r, 10));
  }
  return status;
}

describe('--request-timeout=1s with two mutating slots', () => {
  const srv = useTestServer({
    requestTimeoutSeconds: 1,
    maxMutatingRequestsInflight: 2,
    enablePriorityAndFairness: false,
  });

  it('answers trickled HTTP/1.1 bodies 504 at the deadline, closes them and frees their slots', async () => {
    const slow = [slowPost(srv, CMS), slowPost(srv, CMS)];
    expect(await waitForFullSlots(srv)).toBe(429);
    for (const { answer, closed } of slow) {
      const a = await answer;
      expect(a.status).toBe(504);
      expect(a.text).toBe(TIMEOUT_BODY);
      expect(a.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(a.headers['audit-id']).toBeTruthy();
      await closed;
    }
    const created = await srv.api('POST', CMS, configMap('after-slow-h1'));
    expect(created.status).toBe(201);
  });

  it('does the same over HTTP/2, ending the stream with RST_STREAM(NO_ERROR) after the answer', async () => {
    const slow = [slowPostH2(srv, CMS), slowPostH2(srv, CMS)];
    expect(await waitForFullSlots(srv)).toBe(429);
    for (const s of slow) {
      const a = await s.answer;
      expect(a.status).toBe(504);
      expect(a.text).toBe(TIMEOUT_BODY);
      expect(await s.rstCode).toBe(h2.NGHTTP2_NO_ERROR);
      s.close();
    }
    expect((await srv.api('POST', CMS, configMap('after-slow-h2'))).status).toBe(201);
  });

  it('cuts a body still arriving after an early answer (401) at the deadline', async () => {
    const { answer, closed } = slowPost(srv, CMS, 'wrong-token');
    const early = await answer;
    expect(early.status).toBe(401);
    expect(early.headers.connection).toBe('keep-alive');
    await closed; // without a deadline on the body, Node would read it for as long as it trickles
  });

  it('leaves long-running requests alone: a watch outlives the deadline and still gets events', async () => {
    const events: any[] = [];
    const url = new URL(`${srv.url}${CMS}?watch=true&timeoutSeconds=10&fieldSelector=metadata.name%3Dwatched`);
    const req = httpsRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      ca: srv.running.caPem,
      agent: false,
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
    });
    req.on('error', () => undefined);
    const status = await new Promise<number>((resolve) => {
      req.on('response', (res) => {
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          const lines = (tail + c).split('\n');
          tail = lines.pop()!;
          for (const l of lines) if (l) events.push(JSON.parse(l));
        });
        res.on('error', () => undefined);
        resolve(res.statusCode ?? 0);
      });
      req.end();
    });
    expect(status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500)); // past the 1 s request timeout
    expect((await srv.api('POST', CMS, configMap('watched'))).status).toBe(201);
    for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(events.map((e) => [e.type, e.object?.metadata?.name])).toEqual([['ADDED', 'watched']]);
    req.destroy();
  });
});

describe('the timeout query parameter (audited)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ck-timeout-audit-'));
  writeFileSync(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n');
  const srv = useTestServer({ auditLogPath: join(dir, 'audit.log'), auditPolicyFile: join(dir, 'policy.yaml') });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The audit events of one request, once there are `count` of them (or after 2 s). */
  async function eventsOf(auditId: unknown, count: number): Promise<any[]> {
    for (let i = 0; ; i++) {
      await srv.running.deps.audit!.flush();
      const events = readFileSync(join(dir, 'audit.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.auditID === auditId);
      if (events.length >= count || i >= 100) return events;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('shortens the deadline below --request-timeout (default 1m0s); the request is audited with its 504', async () => {
    const { answer } = slowPost(srv, `${CMS}?timeout=1s`);
    const a = await answer;
    expect(a.status).toBe(504);
    expect(a.text).toBe(TIMEOUT_BODY);
    const events = await eventsOf(a.headers['audit-id'], 2);
    expect(events.map((e) => [e.stage, e.responseStatus?.code, e.responseStatus?.reason])).toEqual([
      ['RequestReceived', undefined, undefined],
      ['ResponseComplete', 504, 'Timeout'],
    ]);
  });

  it('is not read on long-running requests (a watch with timeout=abc is served)', async () => {
    const res = await srv.api('GET', `${CMS}?watch=true&timeoutSeconds=1&timeout=abc`);
    expect(res.status).toBe(200);
  });

  it('is ignored when 0s (the server maximum applies), and requests within it are answered normally', async () => {
    expect((await srv.api('POST', `${CMS}?timeout=0s`, configMap('zero-timeout'))).status).toBe(201);
    expect((await srv.api('GET', `${CMS}?timeout=30s`)).status).toBe(200);
  });

  it.each([
    ['abc', 'time: invalid duration "abc"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
  ])('answers 400 for timeout=%s, audited once at ResponseStarted without a user', async (value, goError) => {
    const res = await srv.api('GET', `${CMS}?timeout=${value}`);
    const message = `invalid timeout specified in the request URL - ${goError}`;
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message });
    const events = await eventsOf(res.headers['audit-id'], 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      stage: 'ResponseStarted',
      verb: 'list',
      user: {},
      responseStatus: { metadata: {}, message, code: 400 },
    });
  });
});

describe('--request-timeout flag', () => {
  it('reads a Go duration (flag or CK_REQUEST_TIMEOUT), default 1m0s, refusing negative values', () => {
    expect(loadConfig([], {}).requestTimeoutSeconds).toBe(60);
    expect(loadConfig(['--request-timeout=1m30s'], {}).requestTimeoutSeconds).toBe(90);
    expect(loadConfig([], { CK_REQUEST_TIMEOUT: '500ms' }).requestTimeoutSeconds).toBe(0.5);
    expect(() => loadConfig(['--request-timeout=30'], {})).toThrow(
      'invalid --request-timeout "30": time: missing unit in duration "30"',
    );
    expect(() => loadConfig(['--request-timeout=-1s'], {})).toThrow('--request-timeout can not be negative value');
  });
});

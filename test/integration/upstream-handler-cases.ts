/**
 * The table harness of the upstream-handlers suites (issue 28, "Accept what upstream accepts"):
 * each case is one request as upstream's own handler tests send it (k8s.io/apiserver
 * pkg/endpoints/apiserver_test.go, patchhandler_test.go, handlers/rest_test.go,
 * handlers/patch_test.go, handlers/negotiation/negotiate_test.go, watch_test.go), translated
 * to a core/v1 kind in namespace `default`, with the answer upstream gives. Every case runs over
 * HTTP/1.1 and over HTTP/2, with exactly the headers the case names (no Accept or
 * Content-Type is added). Upstream's create, update and delete tests send their bodies with no
 * Content-Type at all; here the cases about that send none, and the cases about something else
 * (a kind, a version, a name) send `application/json`, so each case fails for one reason only.
 *
 * `$N` in a path, body or setup stands for an object name unique to the case and transport.
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, type TestServer } from '../helpers/in-process.js';

export const NS = '/api/v1/namespaces/default';
export const CMS = `${NS}/configmaps`;
export const RCS = `${NS}/replicationcontrollers`;
export const PODS = `${NS}/pods`;
export const SCCS = '/apis/security.platform.io/v1/securitycontextconstraints';

/** An answer as the client reads it: JSON bodies parsed, others as text. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly body: any;
}

/** One object created (as JSON, through the ordinary API) before a case's request. */
export interface Fixture {
  readonly path: string;
  readonly body: unknown;
}

/** One request and upstream's answer to it. */
export interface HandlerCase {
  /** What is sent and answered, ending with the upstream source: `(file: Test)`. */
  readonly name: string;
  readonly setup?: readonly Fixture[];
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, sent as is (undefined: none at all). */
  readonly body?: string;
  /** A watch: only the status and headers are read, then the stream is closed. */
  readonly watch?: boolean;
  readonly status: number;
  /** The Status reason of an error answer. */
  readonly reason?: string;
  /** A part of the Status message that upstream's test checks. */
  readonly message?: string;
  /** The answer's exact Content-Type. */
  readonly contentType?: string;
  /** Further checks on the answer (or on the stored object, through `srv`). */
  readonly check?: (res: Answer, srv: TestServer, name: string) => void | Promise<void>;
}

/** A ConfigMap `$N` with data a=1. */
export const cm = (extra: Record<string, unknown> = {}): Fixture => ({
  path: CMS,
  body: { metadata: { name: '$N', ...extra }, data: { a: '1' } },
});

/** A ReplicationController `$N` with one replica. */
export const rc = (): Fixture => ({
  path: RCS,
  body: {
    metadata: { name: '$N' },
    spec: {
      replicas: 1,
      selector: { app: '$N' },
      template: { metadata: { labels: { app: '$N' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  },
});

/** A Pod `$N` bound to a node, so its deletion is graceful (an unbound pod's grace is forced to 0). */
export const pod = (): Fixture => ({
  path: PODS,
  body: { metadata: { name: '$N' }, spec: { nodeName: 'node-a', containers: [{ name: 'c', image: 'i' }] } },
});

/** JSON text of `value` (for case bodies). */
export const json = (value: unknown): string => JSON.stringify(value);

/** True when the text is indented JSON (upstream's pretty serializer), false when compact. */
export const indented = (text: string): boolean => /^\{\n {2}"/.test(text);

/** The body as JSON when the answer says it is JSON, else the text. */
function parse(text: string, contentType: string): any {
  if (!contentType.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Send over HTTP/1.1 (undici), exactly the given headers plus the bearer token. */
async function sendHttp1(srv: TestServer, c: HandlerCase, path: string, body: string | undefined): Promise<Answer> {
  const res = await request(srv.url + path, {
    method: c.method as never,
    dispatcher: srv.agent,
    headers: { authorization: `Bearer ${TEST_TOKEN}`, ...c.headers },
    body,
  });
  if (c.watch) {
    res.body.destroy();
    return { status: res.statusCode, headers: res.headers, text: '', body: undefined };
  }
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    text,
    body: parse(text, String(res.headers['content-type'] ?? '')),
  };
}

/** Send as one stream of an HTTP/2 session, as Go clients do after ALPN negotiates h2. */
function sendHttp2(
  session: ClientHttp2Session,
  c: HandlerCase,
  path: string,
  body: string | undefined,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ':method': c.method, ':path': path, authorization: `Bearer ${TEST_TOKEN}`, ...c.headers };
    const stream = session.request(headers, { endStream: body === undefined });
    let text = '';
    let response: Record<string, unknown> = {};
    const answer = (): Answer => {
      const h = Object.fromEntries(Object.entries(response).filter(([k]) => !k.startsWith(':'))) as Answer['headers'];
      return {
        status: Number(response[':status']),
        headers: h,
        text,
        body: parse(text, String(h['content-type'] ?? '')),
      };
    };
    stream.setEncoding('utf8');
    stream.on('response', (h) => {
      response = h;
      if (c.watch) {
        resolve(answer());
        stream.close();
      }
    });
    stream.on('data', (chunk: string) => (text += chunk));
    stream.on('end', () => resolve(answer()));
    stream.on('error', reject);
    if (body !== undefined) stream.end(body);
  });
}

/** Replace `$N` everywhere in a string or JSON value. */
function named<T>(value: T, name: string): T {
  return JSON.parse(JSON.stringify(value).replaceAll('$N', name)) as T;
}

/**
 * Register one test per case and transport under `title`. Each case gets its own object name
 * (`<prefix>-<h1|h2>-<index>`), its fixtures are created first, then its request is sent and
 * the answer compared with upstream's.
 */
export function runCases(title: string, srv: TestServer, prefix: string, cases: readonly HandlerCase[]): void {
  const sessions: ClientHttp2Session[] = [];
  afterAll(() => sessions.forEach((s) => s.close()));
  const h2 = (): ClientHttp2Session => {
    if (!sessions[0] || sessions[0].closed || sessions[0].destroyed) {
      const s = connect(srv.url, { ca: srv.running.caPem });
      s.on('error', () => undefined);
      sessions.unshift(s);
    }
    return sessions[0];
  };
  for (const transport of ['HTTP/1.1', 'HTTP/2'] as const) {
    describe(`${title} over ${transport}`, () => {
      cases.forEach((c, i) => {
        it(c.name, async () => {
          const name = `${prefix}-${transport === 'HTTP/2' ? 'h2' : 'h1'}-${i}`;
          for (const f of c.setup ?? []) {
            const made = await srv.api('POST', named(f.path, name), named(f.body, name));
            expect(made.status, `setup ${f.path}: ${made.text}`).toBe(201);
          }
          const path = named(c.path, name);
          const body = c.body === undefined ? undefined : named(c.body, name);
          const res =
            transport === 'HTTP/2' ? await sendHttp2(h2(), c, path, body) : await sendHttp1(srv, c, path, body);
          expect(res.status, res.text).toBe(c.status);
          if (c.reason !== undefined) expect(res.body?.reason, res.text).toBe(c.reason);
          if (c.message !== undefined) expect(String(res.body?.message), res.text).toContain(c.message);
          if (c.contentType !== undefined) expect(res.headers['content-type']).toBe(c.contentType);
          await c.check?.(res, srv, name);
        });
      });
    });
  }
}

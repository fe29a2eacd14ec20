/**
 * Lists written from each item's kept encoding (lists served from the watch cache): the same
 * items, selfLinks and list metadata as a freshly encoded list, and never a stale item after a
 * change, whatever resourceVersion the list asks for. A list larger than a batch (128 KiB) is
 * streamed: the same bytes, with their Content-Length, over HTTP/1.1 and HTTP/2, and whole to an
 * audit that records the response.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, constants } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_TOKEN, useTestServer, type TestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const cms = '/api/v1/namespaces/default/configmaps';

/** Create `count` ConfigMaps of about 1 KiB named `<prefix>-<i>` in `ns` of `server`. */
async function fill(server: TestServer, ns: string, prefix: string, count: number): Promise<void> {
  if (ns !== 'default') await server.api('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (let i = 0; i < count; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, async (_, k) => {
        const res = await server.api('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          metadata: { name: `${prefix}-${i + k}` },
          data: { v: 'x'.repeat(1024), i: String(i + k) },
        });
        expect(res.status).toBe(201);
      }),
    );
  }
}

/** GET `path` over HTTP/2: status, content-length and body text. */
async function getHttp2(server: TestServer, path: string) {
  const session = connect(server.url, { ca: server.running.caPem });
  try {
    return await new Promise<{ status: number; length: string | undefined; text: string }>((resolve, reject) => {
      const stream = session.request({ ':path': path, authorization: `Bearer ${TEST_TOKEN}` });
      const chunks: Buffer[] = [];
      let status = 0;
      let length: string | undefined;
      stream.once('response', (h) => ((status = Number(h[':status'])), (length = h['content-length'] as string)));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.once('end', () => resolve({ status, length, text: Buffer.concat(chunks).toString() }));
      stream.once('error', reject);
    });
  } finally {
    session.close();
  }
}

describe('list encoding', () => {
  it('answers compact JSON equal to the pretty (freshly encoded) list', async () => {
    for (const name of ['enc-a', 'enc-b']) await srv.api('POST', cms, { metadata: { name }, data: { v: name } });
    const compact = await srv.api('GET', `${cms}?resourceVersion=0`);
    const pretty = await srv.api('GET', `${cms}?resourceVersion=0&pretty=true`);
    expect(compact.status).toBe(200);
    expect(compact.text).not.toContain('\n');
    expect(compact.body).toEqual(pretty.body);
    expect(compact.body).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { selfLink: cms } });
    const item = compact.body.items.find((i: any) => i.metadata.name === 'enc-a');
    expect(item).toMatchObject({ metadata: { selfLink: `${cms}/enc-a` }, data: { v: 'enc-a' } });
    expect(item.kind).toBeUndefined();
    expect(item.apiVersion).toBeUndefined();
  });

  it('shows a change at once in a consistent list and in later lists from the cache, never the old encoding', async () => {
    await srv.api('POST', cms, { metadata: { name: 'enc-c' }, data: { v: '1' } });
    await srv.api('GET', `${cms}?resourceVersion=0`);
    for (let v = 2; v <= 4; v++) {
      const updated = await srv.api(
        'PATCH',
        `${cms}/enc-c`,
        { data: { v: String(v) } },
        { 'content-type': 'application/merge-patch+json' },
      );
      const consistent = await srv.api('GET', cms);
      const c = consistent.body.items.find((i: any) => i.metadata.name === 'enc-c');
      expect(c.data.v).toBe(String(v));
      expect(c.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
      const fromCache = await srv.api('GET', `${cms}?resourceVersion=${updated.body.metadata.resourceVersion}`);
      expect(fromCache.body.items.find((i: any) => i.metadata.name === 'enc-c').data.v).toBe(String(v));
    }
    await srv.api('DELETE', `${cms}/enc-c`);
    const after = await srv.api('GET', cms);
    expect(after.body.items.some((i: any) => i.metadata.name === 'enc-c')).toBe(false);
  });

  it('gives each path its own selfLinks when one stored object is served at two group versions', async () => {
    const body = { metadata: { name: 'enc-role' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
    expect((await srv.api('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', body)).status).toBe(
      201,
    );
    for (let round = 0; round < 2; round++) {
      for (const root of ['/apis/rbac.authorization.k8s.io/v1', '/apis/rbac.authorization.ck.io/v1']) {
        const list = await srv.api('GET', `${root}/namespaces/default/roles?resourceVersion=0`);
        expect(list.status).toBe(200);
        const item = list.body.items.find((i: any) => i.metadata.name === 'enc-role');
        expect(item.metadata.selfLink).toBe(`${root}/namespaces/default/roles/enc-role`);
      }
    }
  });

  /** A list without its own resourceVersion: any write elsewhere (a controller's lease) moves it between reads. */
  const sameList = (list: any) => ({ ...list, metadata: { ...list.metadata, resourceVersion: undefined } });

  it('streams a list larger than a batch: the same list, with its Content-Length, over HTTP/1.1 and HTTP/2', async () => {
    await fill(srv, 'enc-big', 'big', 300);
    const path = '/api/v1/namespaces/enc-big/configmaps';
    const pretty = await srv.api('GET', `${path}?resourceVersion=0&pretty=true`);
    for (const query of ['?resourceVersion=0', '']) {
      const http1 = await srv.api('GET', path + query);
      expect(http1.status).toBe(200);
      expect(Buffer.byteLength(http1.text)).toBeGreaterThan(300 * 1024);
      expect(http1.headers['content-length']).toBe(String(Buffer.byteLength(http1.text)));
      expect(http1.headers['transfer-encoding']).toBeUndefined();
      expect(http1.body.items).toHaveLength(300);
      expect(sameList(http1.body)).toEqual(sameList(pretty.body));
      const http2 = await getHttp2(srv, path + query);
      expect(http2.status).toBe(200);
      expect(http2.length).toBe(String(Buffer.byteLength(http2.text)));
      expect(sameList(JSON.parse(http2.text))).toEqual(sameList(pretty.body));
    }
  });
  it('stops a streamed list whose client cancels it, and serves the next on the same connection', async () => {
    await fill(srv, 'enc-cancel', 'c', 300);
    const path = '/api/v1/namespaces/enc-cancel/configmaps?resourceVersion=0';
    const session = connect(srv.url, { ca: srv.running.caPem });
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ':path': path, authorization: `Bearer ${TEST_TOKEN}` });
        let bytes = 0;
        stream.on('data', (c: Buffer) => {
          bytes += c.length;
          if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
        });
        stream.once('close', () => resolve(bytes));
        stream.once('error', reject);
      });
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(300 * 1024);
      const next = await new Promise<string>((resolve, reject) => {
        const stream = session.request({ ':path': path, authorization: `Bearer ${TEST_TOKEN}` });
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.once('end', () => resolve(Buffer.concat(chunks).toString()));
        stream.once('error', reject);
      });
      expect(JSON.parse(next).items).toHaveLength(300);
    } finally {
      session.close();
    }
  });
});

describe('a streamed list under an audit that records responses', () => {
  let dir: string;
  let audited: TestServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-list-audit-'));
    await writeFile(
      join(dir, 'policy.yaml'),
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: RequestResponse\n    resources: [{ group: "", resources: [configmaps] }]\n  - level: Metadata\n',
    );
    audited = await startTestServer({
      auditLogPath: join(dir, 'audit.log'),
      auditPolicyFile: join(dir, 'policy.yaml'),
    });
  });
  afterAll(async () => {
    await audited?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('records the whole list as the response object, as the client got it', async () => {
    await fill(audited, 'audited', 'a', 150);
    const res = await audited.api('GET', '/api/v1/namespaces/audited/configmaps?resourceVersion=0');
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.text)).toBeGreaterThan(150 * 1024);
    await audited.running.deps.audit!.flush();
    const events = (await readFile(join(dir, 'audit.log'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.auditID === res.headers['audit-id'] && e.stage === 'ResponseComplete');
    expect(events).toHaveLength(1);
    expect(events[0].responseObject).toEqual(res.body);
  });
});

// Bodies the decoder refuses (nesting far past its bound, YAML alias bombs and alias cycles)
// under an audit policy that records request bodies: each request is answered with its 400
// Status, and audited (upstream records the request object only when it decoded).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

const POLICY = 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: RequestResponse\n';
const CMS = '/api/v1/namespaces/default/configmaps';

const deepJson = '['.repeat(10_000) + ']'.repeat(10_000);
const deepObjectJson = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
for (let i = 1; i < 9; i++)
  laughs.push(
    `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
      .fill(`*${String.fromCharCode(96 + i)}`)
      .join(',')}]`,
  );
const billionLaughs = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\n${laughs.join('\n')}\n`;
const aliasCycle = 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  name: cycle\n  labels: *m\n';

describe('audit of bodies the decoder refuses', () => {
  let dir: string;
  let srv: TestServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-audit-bounds-'));
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    srv = await startTestServer({ auditLogPath: join(dir, 'audit.log'), auditPolicyFile: join(dir, 'policy.yaml') });
  });
  afterAll(async () => {
    await srv?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function eventsOf(auditId: unknown): Promise<any[]> {
    await srv.running.deps.audit!.flush();
    const text = await readFile(join(dir, 'audit.log'), 'utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.auditID === auditId);
  }

  it.each([
    ['10,000-deep JSON array', 'application/json', deepJson],
    ['10,000-deep JSON object in a ConfigMap', 'application/json', deepObjectJson],
    ['a billion-laughs YAML alias bomb', 'application/yaml', billionLaughs],
    ['a YAML alias cycle', 'application/yaml', aliasCycle],
  ])('%s: 400 with a Status, audited at every stage without a request object', async (_name, type, body) => {
    const res = await srv.api('POST', CMS, body, { 'content-type': type });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    const events = await eventsOf(res.headers['audit-id']);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const complete = events[1];
    expect(complete).toMatchObject({
      verb: 'create',
      objectRef: { resource: 'configmaps', namespace: 'default' },
      responseStatus: { code: 400, reason: 'BadRequest' },
    });
    expect(complete.responseObject).toMatchObject({ kind: 'Status', code: 400, message: res.body.message });
    expect(complete.requestObject).toBeUndefined();
  });

  it('still records the request object of a body that decodes', async () => {
    const res = await srv.api('POST', CMS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fine' },
      data: { a: 'b' },
    });
    expect(res.status).toBe(201);
    const events = await eventsOf(res.headers['audit-id']);
    expect(events[1]).toMatchObject({
      stage: 'ResponseComplete',
      objectRef: { name: 'fine' },
      requestObject: { metadata: { name: 'fine' }, data: { a: 'b' } },
      responseStatus: { code: 201 },
    });
  });
});

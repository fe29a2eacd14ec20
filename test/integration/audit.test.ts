// Audit logging (--audit-log-path with --audit-policy-file) over real HTTPS: one JSON line per
// event and stage as upstream's log backend writes them, policy levels, omitted stages, the
// 401 of a failed authentication, and rotation.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    users: [bob]
  - level: None
    nonResourceURLs: ['/healthz*']
  - level: RequestResponse
    resources: [{ group: '', resources: [configmaps] }]
  - level: Metadata
    resources: [{ group: '', resources: [endpoints] }]
    omitStages: [RequestReceived]
  - level: Metadata
`;

/** Every event in the audit log files of `dir`, oldest file first. */
async function readEvents(dir: string): Promise<any[]> {
  const names = (await readdir(dir))
    .filter((n) => n.startsWith('audit'))
    .sort((a, b) => (a === 'audit.log' ? 1 : b === 'audit.log' ? -1 : a.localeCompare(b)));
  const texts = await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
  return texts.flatMap((t) =>
    t
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
}

describe('audit log', () => {
  let dir: string;
  let srv: TestServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-audit-it-'));
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    srv = await startTestServer({ auditLogPath: join(dir, 'audit.log'), auditPolicyFile: join(dir, 'policy.yaml') });
  });
  afterAll(async () => {
    await srv?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The events of one request (by the Audit-Id it was answered with), once `count` are there. */
  async function eventsOf(auditId: unknown, count?: number): Promise<any[]> {
    for (let i = 0; ; i++) {
      await srv.running.deps.audit!.flush();
      const events = (await readEvents(dir)).filter((e) => e.auditID === auditId);
      if (count === undefined || events.length >= count || i > 40) return events;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('records a request once per stage with user, verb, objectRef and response code', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/pods?limit=5', undefined, {
      'user-agent': 'audit-test/1.0',
    });
    expect(res.status).toBe(200);
    const events = await eventsOf(res.headers['audit-id']);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [received, complete] = events;
    expect(received).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      requestURI: '/api/v1/namespaces/default/pods?limit=5',
      verb: 'list',
      user: { username: 'admin', uid: 'uid-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'audit-test/1.0',
      objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
    });
    expect(received.responseStatus).toBeUndefined();
    expect(received.stageTimestamp).toBe(received.requestReceivedTimestamp);
    expect(complete.responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(complete.annotations).toMatchObject({ 'authorization.k8s.io/decision': 'allow' });
    expect(complete.stageTimestamp >= complete.requestReceivedTimestamp).toBe(true);
    expect(complete.requestObject).toBeUndefined();
    expect(complete.responseObject).toBeUndefined();
  });

  it('keeps a client Audit-ID, and records errors with their Status fields', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/pods/missing', undefined, {
      'audit-id': 'client-chosen-id',
    });
    expect(res.status).toBe(404);
    expect(res.headers['audit-id']).toBe('client-chosen-id');
    const [, complete] = await eventsOf('client-chosen-id');
    expect(complete.objectRef).toEqual({ resource: 'pods', namespace: 'default', name: 'missing', apiVersion: 'v1' });
    expect(complete.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'pods "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'pods' },
      code: 404,
    });
  });

  it('records ResponseStarted for a watch, and ResponseComplete when it ends', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/pods?watch=1&timeoutSeconds=1');
    expect(res.status).toBe(200);
    const events = await eventsOf(res.headers['audit-id'], 3);
    expect(events.map((e) => [e.stage, e.verb, e.responseStatus?.code])).toEqual([
      ['RequestReceived', 'watch', undefined],
      ['ResponseStarted', 'watch', 200],
      ['ResponseComplete', 'watch', 200],
    ]);
  });

  it('writes no Secret data at Metadata level, and names the created object', async () => {
    const secret = Buffer.from('s3cr3t-audit-value').toString('base64');
    const res = await srv.api('POST', '/api/v1/namespaces/default/secrets', {
      metadata: { name: 'db-pass' },
      data: { password: secret },
      stringData: { token: 'plain-audit-token' },
    });
    expect(res.status).toBe(201);
    const events = await eventsOf(res.headers['audit-id']);
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(events[0].objectRef).toEqual({ resource: 'secrets', namespace: 'default', apiVersion: 'v1' });
    expect(events[1].objectRef).toEqual({
      resource: 'secrets',
      namespace: 'default',
      name: 'db-pass',
      apiVersion: 'v1',
    });
    expect(events[1].responseStatus).toEqual({ metadata: {}, code: 201 });
    const log = await readFile(join(dir, 'audit.log'), 'utf8');
    expect(log).not.toContain(secret);
    expect(log).not.toContain('s3cr3t-audit-value');
    expect(log).not.toContain('plain-audit-token');
  });

  it('records request and response bodies at RequestResponse (configmaps)', async () => {
    const res = await srv.api('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'audited' },
      data: { key: 'value' },
    });
    expect(res.status).toBe(201);
    const [received, complete] = await eventsOf(res.headers['audit-id']);
    expect(received.level).toBe('RequestResponse');
    expect(received.requestObject).toBeUndefined();
    expect(complete.requestObject).toEqual({ metadata: { name: 'audited' }, data: { key: 'value' } });
    expect(complete.responseObject).toMatchObject({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'audited', uid: res.body.metadata.uid },
      data: { key: 'value' },
    });
    const get = await srv.api('GET', '/api/v1/namespaces/default/configmaps/nope');
    const [, failed] = await eventsOf(get.headers['audit-id']);
    expect(failed.responseObject).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    // A Success Status answer: its fields, with the HTTP code (upstream's processCode).
    const del = await srv.api('DELETE', '/api/v1/namespaces/default/configmaps/audited');
    const [, deleted] = await eventsOf(del.headers['audit-id']);
    expect(deleted.requestObject).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
    expect(deleted.responseStatus).toMatchObject({ metadata: {}, status: 'Success', code: 200 });
  });

  it('records nothing for requests a None rule matches (a path, a user)', async () => {
    const health = await srv.api('GET', '/healthz');
    const bob = await srv.api('GET', '/api/v1/namespaces/default/pods', undefined, {
      authorization: 'Bearer other-token',
    });
    const after = await srv.api('GET', '/version');
    expect(await eventsOf(after.headers['audit-id'], 2)).toHaveLength(2); // written after the two before
    expect(await eventsOf(health.headers['audit-id'])).toEqual([]);
    expect(await eventsOf(bob.headers['audit-id'])).toEqual([]);
  });

  it('audits unauthenticated paths as system:anonymous, non-resource requests by HTTP method', async () => {
    const version = await srv.api('GET', '/version');
    const [received] = await eventsOf(version.headers['audit-id']);
    expect(received).toMatchObject({
      verb: 'get',
      requestURI: '/version',
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
    });
    expect(received.objectRef).toBeUndefined();
  });

  it('leaves out the stages a rule omits', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/endpoints');
    expect((await eventsOf(res.headers['audit-id'])).map((e) => e.stage)).toEqual(['ResponseComplete']);
  });

  it('records a failed authentication once, at ResponseStarted, with an empty user', async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/pods', undefined, {
      authorization: 'Bearer wrong-token',
    });
    expect(res.status).toBe(401);
    const events = await eventsOf(res.headers['audit-id']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      stage: 'ResponseStarted',
      verb: 'list',
      user: {},
      responseStatus: { metadata: {}, status: 'Failure', reason: 'Unauthorized', code: 401 },
    });
  });
});

describe('audit log rotation', () => {
  let dir: string;
  let srv: TestServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ck-audit-rot-'));
    await writeFile(
      join(dir, 'policy.json'),
      JSON.stringify({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] }),
    );
    // 0.004 MiB is about 4 KiB: a few events per file (the flag itself takes whole megabytes).
    srv = await startTestServer({
      auditLogPath: join(dir, 'audit.log'),
      auditPolicyFile: join(dir, 'policy.json'),
      auditLogMaxSize: 0.004,
      auditLogMaxBackup: 2,
    });
  });
  afterAll(async () => {
    await srv?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('rotates to lumberjack-named backups past maxsize and keeps maxbackup of them', async () => {
    for (let i = 0; i < 20; i++) expect((await srv.api('GET', '/api/v1/namespaces')).status).toBe(200);
    await srv.running.deps.audit!.flush();
    const names = (await readdir(dir)).filter((n) => n.startsWith('audit')).sort();
    expect(names).toHaveLength(3);
    for (const name of names.slice(0, 2)) expect(name).toMatch(/^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
    for (const name of names)
      expect((await stat(join(dir, name))).size).toBeLessThanOrEqual(Math.floor(0.004 * 1024 * 1024));
    expect((await readEvents(dir)).every((e) => e.kind === 'Event')).toBe(true);
  });
});

it('audits nothing with --audit-log-path but no policy (upstream)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ck-audit-nopolicy-'));
  const srv = await startTestServer({ auditLogPath: join(dir, 'audit.log') });
  try {
    expect(srv.running.deps.audit).toBeUndefined();
    expect((await srv.api('GET', '/api/v1/namespaces')).status).toBe(200);
    expect(await readdir(dir)).toEqual([]);
  } finally {
    await srv.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

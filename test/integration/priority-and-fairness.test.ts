/**
 * API Priority and Fairness as clients meet it: every response names the FlowSchema and
 * priority level that classified it (X-Kubernetes-PF-* headers with the stored objects' UIDs);
 * a saturated level answers 429 with Retry-After and upstream's plain-text body; a queuing
 * level holds requests until a seat frees and rejects what its queue cannot take; and one
 * tenant saturating its level does not slow another level's requests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/in-process.js';

const ADMIN = 'apf-admin-token';
const FLOOD = 'apf-flood-token';
const QUEUER = 'apf-queuer-token';
const OTHER = 'apf-other-token';
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';

let dir: string;
let srv: TestServer;
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const admin = (method: string, path: string, body?: unknown) => srv.api(method, path, body, as(ADMIN));

/** A list that holds its seat for up to 3 s: it waits for a resourceVersion the cache has not reached. */
const holdSeat = (token: string) => srv.api('GET', `${CM}?resourceVersion=999999999`, undefined, as(token));

async function until<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A level of one seat's worth of shares, with `limitResponse`, and a schema sending `user` to it. */
async function levelFor(name: string, user: string, limitResponse: object): Promise<void> {
  const pl = await admin('POST', `${FC}/prioritylevelconfigurations`, {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse },
    },
  });
  expect(pl.status).toBe(201);
  const fs = await admin('POST', `${FC}/flowschemas`, {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name },
      matchingPrecedence: 100,
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: user } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
        },
      ],
    },
  });
  expect(fs.status).toBe(201);
  // The dispatcher has taken it once a request of `user` is classified there.
  const uid = fs.body.metadata.uid as string;
  await until(async () => {
    const res = await srv.api('GET', '/api/v1/namespaces/default/configmaps/none', undefined, as(tokenOf(user)));
    return res.headers['x-kubernetes-pf-flowschema-uid'] === uid ? true : undefined;
  });
}

const tokenOf = (user: string) => ({ flood: FLOOD, queuer: QUEUER, other: OTHER })[user] as string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ck-apf-'));
  await writeFile(
    join(dir, 'tokens.csv'),
    [
      `${ADMIN},admin,uid-admin,"system:masters"`,
      `${FLOOD},flood,uid-flood`,
      `${QUEUER},queuer,uid-queuer`,
      `${OTHER},other,uid-other`,
    ].join('\n') + '\n',
  );
  // 2 seats in all: every level's nominal share rounds up to one seat.
  srv = await startTestServer({
    tokenAuthFile: join(dir, 'tokens.csv'),
    authorizationModes: ['AlwaysAllow'],
    maxRequestsInflight: 1,
    maxMutatingRequestsInflight: 1,
  });
  await until(async () => ((await admin('GET', `${FC}/flowschemas/global-default`)).status === 200 ? true : undefined));
}, 60_000);
afterAll(async () => {
  await srv?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('API Priority and Fairness', () => {
  it("names the FlowSchema and priority level of every response by the stored objects' UIDs", async () => {
    const schema = (await admin('GET', `${FC}/flowschemas/global-default`)).body;
    const level = (await admin('GET', `${FC}/prioritylevelconfigurations/global-default`)).body;
    const res = await until(async () => {
      const r = await srv.api('GET', CM, undefined, as(OTHER));
      return r.headers['x-kubernetes-pf-flowschema-uid'] === schema.metadata.uid ? r : undefined;
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-kubernetes-pf-prioritylevel-uid']).toBe(level.metadata.uid);
    const exempt = (await admin('GET', `${FC}/flowschemas/exempt`)).body;
    expect((await admin('GET', CM)).headers['x-kubernetes-pf-flowschema-uid']).toBe(exempt.metadata.uid);
  });

  it('rejects with 429, Retry-After and plain text when a Reject level has no seat', async () => {
    await levelFor('flood-level', 'flood', { type: 'Reject' });
    const held = holdSeat(FLOOD);
    await new Promise((r) => setTimeout(r, 300));
    const res = await srv.api('GET', CM, undefined, as(FLOOD));
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Too many requests, please try again later.\n');
    // Another tenant's level is untouched.
    expect((await srv.api('GET', CM, undefined, as(OTHER))).status).toBe(200);
    await held;
    expect((await srv.api('GET', CM, undefined, as(FLOOD))).status).toBe(200);
    const metrics = (await admin('GET', '/metrics')).text;
    expect(metrics).toMatch(
      /apiserver_flowcontrol_rejected_requests_total\{priority_level="flood-level",flow_schema="flood-level",reason="concurrency-limit"\} [1-9]/,
    );
    // Upstream's debug dump: one row per level, its rejections counted.
    const dump = (await admin('GET', '/debug/api_priority_and_fairness/dump_priority_levels')).text;
    expect(dump.split('\n')[0]).toMatch(/^PriorityLevelName, +ActiveQueues, +IsIdle, .*CancelledRequests$/);
    const row = dump
      .split('\n')
      .find((l) => l.startsWith('flood-level,'))!
      .split(/,\s*/);
    expect(Number(row[7])).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('queues a request until a seat frees, and rejects what the queue cannot hold', async () => {
    await levelFor('queuer-level', 'queuer', {
      type: 'Queue',
      queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 },
    });
    const held = holdSeat(QUEUER);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const queued = srv.api('GET', CM, undefined, as(QUEUER));
    await new Promise((r) => setTimeout(r, 300));
    const overflow = await srv.api('GET', CM, undefined, as(QUEUER));
    expect(overflow.status).toBe(429);
    const res = await queued;
    expect(res.status).toBe(200);
    // It waited for the held seat (about 3 s) rather than failing fast.
    expect(Date.now() - started).toBeGreaterThan(1500);
    await held;
    const metrics = (await admin('GET', '/metrics')).text;
    expect(metrics).toMatch(/reason="queue-full"\} [1-9]/);
    expect(metrics).toMatch(
      /apiserver_flowcontrol_request_wait_duration_seconds_count\{priority_level="queuer-level",flow_schema="queuer-level",execute="true"\} [1-9]/,
    );
  }, 20_000);
});

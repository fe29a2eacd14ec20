/**
 * API Priority and Fairness's bootstrap configuration (controllers/flowcontrol-bootstrap.ts) as
 * an operator sees it: a fresh server holds upstream 1.33's 13 FlowSchemas and 8 priority
 * levels, annotated for auto-update and written by upstream's field manager, and `kubectl get`
 * lists the schemas by precedence. At the next start (a pass of the ensurer), a suggested
 * object edited with `apf.kubernetes.io/autoupdate-spec: "false"` is kept, one still annotated
 * `"true"` is restored, a deleted one comes back, as do the mandatory ones; an object the
 * bootstrap set no longer names is deleted when annotated true. A restart on the embedded
 * store shows the same.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { FlowcontrolBootstrap } from '../../src/controllers/flowcontrol-bootstrap.js';
import { run } from '../helpers/run.js';
import { startTestServer, useTestServer, writeKubeconfig, type TestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const FS = `${FC}/flowschemas`;
const PL = `${FC}/prioritylevelconfigurations`;
const AUTO = 'apf.kubernetes.io/autoupdate-spec';
const MERGE = { 'content-type': 'application/merge-patch+json' };

/** Upstream 1.33's FlowSchemas by name: priority level, precedence, distinguisher. */
const SCHEMAS: Record<string, [string, number, string]> = {
  exempt: ['exempt', 1, '<none>'],
  probes: ['exempt', 2, '<none>'],
  'system-leader-election': ['leader-election', 100, 'ByUser'],
  'endpoint-controller': ['workload-high', 150, 'ByUser'],
  'workload-leader-election': ['leader-election', 200, 'ByUser'],
  'system-node-high': ['node-high', 400, 'ByUser'],
  'system-nodes': ['system', 500, 'ByUser'],
  'kube-controller-manager': ['workload-high', 800, 'ByNamespace'],
  'kube-scheduler': ['workload-high', 800, 'ByNamespace'],
  'kube-system-service-accounts': ['workload-high', 900, 'ByNamespace'],
  'service-accounts': ['workload-low', 9000, 'ByUser'],
  'global-default': ['global-default', 9900, 'ByUser'],
  'catch-all': ['catch-all', 10000, 'ByUser'],
};
/** Upstream 1.33's priority levels by name: type, shares, queues, hand size, queue length. */
const LEVELS: Record<string, (string | number)[]> = {
  'catch-all': ['Limited', 5, '<none>', '<none>', '<none>'],
  exempt: ['Exempt', '<none>', '<none>', '<none>', '<none>'],
  'global-default': ['Limited', 20, 128, 6, 50],
  'leader-election': ['Limited', 10, 16, 4, 50],
  'node-high': ['Limited', 40, 64, 6, 50],
  system: ['Limited', 30, 64, 6, 50],
  'workload-high': ['Limited', 40, 128, 6, 50],
  'workload-low': ['Limited', 100, 128, 6, 50],
};

const items = async (api: TestServer['api'], path: string) => (await api('GET', path)).body.items as any[];
const byName = (list: any[]) => new Map(list.map((o) => [o.metadata.name as string, o]));
/** Wait until the leader's first pass has written the whole bootstrap configuration. */
const bootstrapped = (s: TestServer) =>
  vi.waitFor(
    async () => {
      expect((await items(s.api, FS)).length).toBeGreaterThanOrEqual(13);
      expect((await items(s.api, PL)).length).toBeGreaterThanOrEqual(8);
    },
    { timeout: 20_000 },
  );
/** What the leader does at the next start: one pass of the ensurer. */
const nextStart = (s: TestServer) =>
  new FlowcontrolBootstrap(s.running.deps.registry, pino({ level: 'silent' })).ensure();

describe('the bootstrap configuration of a fresh server', () => {
  it("is upstream's: 13 FlowSchemas and 8 priority levels, annotated for auto-update, by the APF config producer", async () => {
    await bootstrapped(srv);
    const schemas = byName(await items(srv.api, FS));
    const levels = byName(await items(srv.api, PL));
    expect([...schemas.keys()].sort()).toEqual(Object.keys(SCHEMAS).sort());
    expect([...levels.keys()].sort()).toEqual(Object.keys(LEVELS).sort());
    for (const [name, [level, precedence, distinguisher]] of Object.entries(SCHEMAS)) {
      const fs = schemas.get(name);
      expect(fs.spec.priorityLevelConfiguration.name, name).toBe(level);
      expect(fs.spec.matchingPrecedence, name).toBe(precedence);
      expect(fs.spec.distinguisherMethod?.type ?? '<none>', name).toBe(distinguisher);
    }
    for (const obj of [...schemas.values(), ...levels.values()]) {
      expect(obj.metadata.annotations, obj.metadata.name).toEqual({ [AUTO]: 'true' });
      expect(obj.metadata.generation).toBe(1);
      expect(obj.metadata.managedFields.map((m: any) => [m.manager, m.operation])).toContainEqual([
        'api-priority-and-fairness-config-producer-v1',
        'Update',
      ]);
    }
    expect(levels.get('exempt').spec).toEqual({
      type: 'Exempt',
      exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 },
    });
    expect(levels.get('catch-all').spec).toEqual({
      type: 'Limited',
      limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
    });
    expect(schemas.get('probes').spec.rules).toEqual([
      {
        subjects: [
          { kind: 'Group', group: { name: 'system:unauthenticated' } },
          { kind: 'Group', group: { name: 'system:authenticated' } },
        ],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      },
    ]);
  });

  it('is what kubectl 1.33 lists: schemas by precedence, levels with their queuing', async () => {
    await bootstrapped(srv);
    const config = await writeKubeconfig(srv, 'apf');
    const kubectl = async (...args: string[]) => {
      const res = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [`--kubeconfig=${config}`, ...args]);
      expect(res.code, res.stderr).toBe(0);
      return res.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/));
    };
    const [fsHeader, ...fsRows] = await kubectl('get', 'flowschemas');
    expect(fsHeader).toEqual([
      'NAME',
      'PRIORITYLEVEL',
      'MATCHINGPRECEDENCE',
      'DISTINGUISHERMETHOD',
      'AGE',
      'MISSINGPL',
    ]);
    const sorted = Object.entries(SCHEMAS).sort(([a, x], [b, y]) => x[1] - y[1] || (a < b ? -1 : 1));
    expect(fsRows.map((r) => [r[0], r[1], Number(r[2]), r[3]])).toEqual(sorted.map(([n, s]) => [n, ...s]));
    const [plHeader, ...plRows] = await kubectl('get', 'prioritylevelconfigurations');
    expect(plHeader).toEqual([
      'NAME',
      'TYPE',
      'NOMINALCONCURRENCYSHARES',
      'QUEUES',
      'HANDSIZE',
      'QUEUELENGTHLIMIT',
      'AGE',
    ]);
    expect(plRows.map((r) => r.slice(0, 6))).toEqual(Object.entries(LEVELS).map(([n, v]) => [n, ...v.map(String)]));
  });
});

describe('the next start', () => {
  it('keeps a suggested object an operator opted out of, restores one still annotated true', async () => {
    await bootstrapped(srv);
    const optOut = await srv.api(
      'PATCH',
      `${FS}/service-accounts`,
      { metadata: { annotations: { [AUTO]: 'false' } }, spec: { matchingPrecedence: 8000 } },
      MERGE,
    );
    expect(optOut.status, optOut.text).toBe(200);
    const edited = await srv.api(
      'PATCH',
      `${PL}/workload-low`,
      { spec: { limited: { nominalConcurrencyShares: 7 } } },
      MERGE,
    );
    expect(edited.body.metadata.generation).toBe(2);
    await nextStart(srv);
    const kept = (await srv.api('GET', `${FS}/service-accounts`)).body;
    expect(kept.spec.matchingPrecedence).toBe(8000);
    expect(kept.metadata.annotations[AUTO]).toBe('false');
    const restored = (await srv.api('GET', `${PL}/workload-low`)).body;
    expect(restored.spec.limited.nominalConcurrencyShares).toBe(100);
    expect(restored.metadata.annotations[AUTO]).toBe('true');
  });

  it('marks an edited suggested object without the annotation as opted out, and one never edited as auto-updated', async () => {
    await bootstrapped(srv);
    // Removing the annotation and changing the spec in one write: generation 2, so the spec is kept.
    await srv.api(
      'PATCH',
      `${FS}/kube-scheduler`,
      { metadata: { annotations: { [AUTO]: null } }, spec: { matchingPrecedence: 700 } },
      MERGE,
    );
    // Removing only the annotation: generation stays 1, so the spec still follows the bootstrap one.
    await srv.api('PATCH', `${PL}/node-high`, { metadata: { annotations: { [AUTO]: null } } }, MERGE);
    await nextStart(srv);
    const schema = (await srv.api('GET', `${FS}/kube-scheduler`)).body;
    expect([schema.metadata.annotations[AUTO], schema.spec.matchingPrecedence]).toEqual(['false', 700]);
    const level = (await srv.api('GET', `${PL}/node-high`)).body;
    expect([level.metadata.annotations[AUTO], level.metadata.generation]).toEqual(['true', 1]);
  });

  it('recreates deleted bootstrap objects, mandatory and suggested, and re-annotates a mandatory one', async () => {
    await bootstrapped(srv);
    for (const path of [`${FS}/exempt`, `${FS}/probes`, `${PL}/catch-all`, `${PL}/system`])
      expect((await srv.api('DELETE', path)).status, path).toBe(200);
    const optOut = await srv.api('PATCH', `${FS}/catch-all`, { metadata: { annotations: { [AUTO]: 'false' } } }, MERGE);
    expect(optOut.status, optOut.text).toBe(200);
    await nextStart(srv);
    expect((await srv.api('GET', `${FS}/exempt`)).body.spec.matchingPrecedence).toBe(1);
    expect((await srv.api('GET', `${FS}/probes`)).body.spec.priorityLevelConfiguration.name).toBe('exempt');
    expect((await srv.api('GET', `${PL}/catch-all`)).body.spec.limited.nominalConcurrencyShares).toBe(5);
    expect((await srv.api('GET', `${PL}/system`)).body.spec.limited.lendablePercent).toBe(33);
    expect((await srv.api('GET', `${FS}/catch-all`)).body.metadata.annotations[AUTO]).toBe('true');
  });

  it("keeps an operator's tuning of the exempt level's spec.exempt", async () => {
    await bootstrapped(srv);
    const tuned = await srv.api('PATCH', `${PL}/exempt`, { spec: { exempt: { nominalConcurrencyShares: 12 } } }, MERGE);
    expect(tuned.status, tuned.text).toBe(200);
    await nextStart(srv);
    expect((await srv.api('GET', `${PL}/exempt`)).body.spec.exempt).toEqual({
      nominalConcurrencyShares: 12,
      lendablePercent: 0,
    });
  });

  it('deletes objects the bootstrap set no longer names only when annotated true', async () => {
    await bootstrapped(srv);
    const rule = {
      subjects: [{ kind: 'User', user: { name: 'x' } }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }],
    };
    const make = (name: string, annotations: Record<string, string>) =>
      srv.api('POST', FS, {
        metadata: { name, annotations },
        spec: { priorityLevelConfiguration: { name: 'global-default' }, rules: [rule] },
      });
    expect((await make('retired-suggestion', { [AUTO]: 'true' })).status).toBe(201);
    expect((await make('kept-opted-out', { [AUTO]: 'false' })).status).toBe(201);
    expect((await make('users-own', {})).status).toBe(201);
    await nextStart(srv);
    expect((await srv.api('GET', `${FS}/retired-suggestion`)).status).toBe(404);
    expect((await srv.api('GET', `${FS}/kept-opted-out`)).status).toBe(200);
    expect((await srv.api('GET', `${FS}/users-own`)).status).toBe(200);
  });
});

describe('a restart on the embedded store', () => {
  it('keeps the opted-out edit, restores the auto-updated one and brings the mandatory level back', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ck-apf-restart-'));
    const start = () => startTestServer({ storageBackend: 'embedded', dataDir });
    try {
      let server = await start();
      await bootstrapped(server);
      const patch = (path: string, body: object) => server.api('PATCH', path, body, MERGE);
      expect(
        (
          await patch(`${FS}/global-default`, {
            metadata: { annotations: { [AUTO]: 'false' } },
            spec: { matchingPrecedence: 9800 },
          })
        ).status,
      ).toBe(200);
      expect((await patch(`${FS}/system-nodes`, { spec: { matchingPrecedence: 600 } })).status).toBe(200);
      expect((await server.api('DELETE', `${PL}/exempt`)).status).toBe(200);
      await server.stop();

      server = await start();
      try {
        await vi.waitFor(
          async () => {
            expect((await server.api('GET', `${PL}/exempt`)).status).toBe(200);
            expect((await server.api('GET', `${FS}/system-nodes`)).body.spec.matchingPrecedence).toBe(500);
          },
          { timeout: 20_000 },
        );
        expect((await server.api('GET', `${FS}/global-default`)).body.spec.matchingPrecedence).toBe(9800);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

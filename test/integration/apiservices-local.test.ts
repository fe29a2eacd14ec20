/**
 * Local APIServices (controllers/apiservice-registration.ts): the leader registers one per
 * served group version at start, with upstream's priorities, the `onstart` automanaged label
 * and Available=True (`Local`); users' APIServices are left alone; one deleted afterwards comes
 * back at the next start (upstream's `onstart` sync), not at once; a changed spec is restored
 * and an automanaged one nothing serves is deleted at start; the Available condition is put back
 * through `/status`; `kubectl get apiservices` (1.33) shows them.
 */
import { describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { ApiServiceRegistration } from '../../src/controllers/apiservice-registration.js';
import { run } from '../helpers/run.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';

const srv = useTestServer();
const V1 = '/apis/apiregistration.k8s.io/v1/apiservices';
const LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/** `<version>.<group>` of every group version discovery lists (apiregistration itself has none, as upstream). */
async function servedNames(): Promise<string[]> {
  const core = (await srv.api('GET', '/api')).body.versions.map((v: string) => `${v}.`);
  const groups = (await srv.api('GET', '/apis')).body.groups.flatMap(
    (g: { name: string; versions: { version: string }[] }) => g.versions.map((v) => `${v.version}.${g.name}`),
  );
  return [...core, ...groups].filter((n) => !n.includes('.apiregistration.')).sort();
}

async function get(name: string) {
  return srv.api('GET', `${V1}/${name}`);
}

async function localNames(): Promise<string[]> {
  const list = (await srv.api('GET', V1)).body.items as { metadata: { name: string; labels?: object } }[];
  return list
    .filter((i) => (i.metadata.labels as Record<string, string> | undefined)?.[LABEL] === 'onstart')
    .map((i) => i.metadata.name)
    .sort();
}

/** What a new leader does: the controller's start sync (then stop it). */
async function restartController(): Promise<void> {
  const c = new ApiServiceRegistration(srv.running.deps.registry, pino({ level: 'silent' }));
  await c.syncOnStart();
  c.stop();
}

const waitForRegistration = () =>
  vi.waitFor(async () => expect(await localNames()).toEqual(await servedNames()), { timeout: 10_000 });

describe('local APIServices', () => {
  it('registers one per served group version, local, automanaged onstart and Available', async () => {
    await waitForRegistration();
    const names = await servedNames();
    expect(names).toEqual(
      expect.arrayContaining(['v1.', 'v1.apps', 'v1.batch', 'v2.autoscaling', 'v1beta1.events.ck.io']),
    );
    for (const name of names) {
      const { body } = await get(name);
      expect(body.metadata.labels, name).toEqual({ [LABEL]: 'onstart' });
      expect(body.spec.service ?? null, name).toBeNull();
      expect(body.status.conditions, name).toEqual([
        expect.objectContaining({
          type: 'Available',
          status: 'True',
          reason: 'Local',
          message: 'Local APIServices are always available',
        }),
      ]);
    }
  });

  it.each([
    ['v1.', '', 'v1', 18000, 1],
    ['v1beta1.extensions', 'extensions', 'v1beta1', 17900, 1],
    ['v1.apps', 'apps', 'v1', 17800, 15],
    ['v1beta2.apps', 'apps', 'v1beta2', 17800, 9],
    ['v1.events.k8s.io', 'events.k8s.io', 'v1', 17750, 15],
    ['v1beta1.events.k8s.io', 'events.k8s.io', 'v1beta1', 17750, 5],
    ['v1.authentication.k8s.io', 'authentication.k8s.io', 'v1', 17700, 15],
    ['v2.autoscaling', 'autoscaling', 'v2', 17500, 30],
    ['v2beta1.autoscaling', 'autoscaling', 'v2beta1', 17500, 9],
    ['v2alpha1.batch', 'batch', 'v2alpha1', 17400, 9],
    ['v1beta1.certificates.k8s.io', 'certificates.k8s.io', 'v1beta1', 17300, 9],
    ['v1.policy', 'policy', 'v1', 17100, 15],
    ['v1.rbac.authorization.k8s.io', 'rbac.authorization.k8s.io', 'v1', 17000, 15],
    ['v1beta1.storage.k8s.io', 'storage.k8s.io', 'v1beta1', 16800, 9],
    ['v1beta1.admissionregistration.k8s.io', 'admissionregistration.k8s.io', 'v1beta1', 16700, 12],
    ['v1.scheduling.k8s.io', 'scheduling.k8s.io', 'v1', 16600, 15],
    ['v1.coordination.k8s.io', 'coordination.k8s.io', 'v1', 16500, 15],
    ['v1.node.k8s.io', 'node.k8s.io', 'v1', 16300, 15],
    ['v1.discovery.k8s.io', 'discovery.k8s.io', 'v1', 16200, 15],
    ['v1.flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.k8s.io', 'v1', 16100, 21],
    // The spec's groups, below every upstream group (upstream's lowest is 15800).
    ['v1beta1.events.ck.io', 'events.ck.io', 'v1beta1', 14750, 5],
    ['v1.rbac.authorization.ck.io', 'rbac.authorization.ck.io', 'v1', 14000, 15],
    ['v1.security.platform.io', 'security.platform.io', 'v1', 14900, 15],
  ])('%s has upstream priorities', async (name, group, version, groupPriorityMinimum, versionPriority) => {
    await waitForRegistration();
    const { body } = await get(name);
    expect(body.spec).toEqual({ group, version, groupPriorityMinimum, versionPriority });
  });

  it('ranks the spec groups below every upstream group', async () => {
    await waitForRegistration();
    const items = (await srv.api('GET', V1)).body.items as { spec: { group: string; groupPriorityMinimum: number } }[];
    const own = items.filter((i) => !/(^|\.)k8s\.io$|^[a-z]*$/.test(i.spec.group));
    expect(own.length).toBeGreaterThan(5);
    for (const i of own) expect(i.spec.groupPriorityMinimum, i.spec.group).toBeLessThan(15800);
  });

  it("leaves a user's APIService alone, and one a user took over", async () => {
    await waitForRegistration();
    const user = await srv.api('POST', V1, {
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        service: { namespace: 'kube-system', name: 'metrics-server' },
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        insecureSkipTLSVerify: true,
        groupPriorityMinimum: 100,
        versionPriority: 100,
      },
    });
    expect(user.status, user.text).toBe(201);
    // Without the label, a local one is the user's: its spec stays.
    const taken = await srv.api(
      'PATCH',
      `${V1}/v1.node.k8s.io`,
      { metadata: { labels: { [LABEL]: null } }, spec: { versionPriority: 3 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(taken.status, taken.text).toBe(200);
    await restartController();
    const after = await get('v1beta1.metrics.k8s.io');
    expect(after.body.metadata.resourceVersion).toBe(user.body.metadata.resourceVersion);
    expect((await get('v1.node.k8s.io')).body.metadata.resourceVersion).toBe(taken.body.metadata.resourceVersion);
    expect((await srv.api('DELETE', `${V1}/v1.node.k8s.io`)).status).toBe(200);
    await restartController();
    expect((await get('v1.node.k8s.io')).body.spec.versionPriority).toBe(15);
  });

  it('re-creates a deleted local APIService at the next start, not at once (onstart)', async () => {
    await waitForRegistration();
    expect((await srv.api('DELETE', `${V1}/v1.scheduling.k8s.io`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await get('v1.scheduling.k8s.io')).status).toBe(404);
    await restartController();
    const back = await get('v1.scheduling.k8s.io');
    expect(back.status).toBe(200);
    expect(back.body.spec).toEqual({
      group: 'scheduling.k8s.io',
      version: 'v1',
      groupPriorityMinimum: 16600,
      versionPriority: 15,
    });
  });

  it('restores a changed spec and deletes an automanaged one nothing serves, at start', async () => {
    await waitForRegistration();
    const patched = await srv.api(
      'PATCH',
      `${V1}/v1.apps`,
      { spec: { groupPriorityMinimum: 5 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(patched.status, patched.text).toBe(200);
    const stale = await srv.api('POST', V1, {
      metadata: { name: 'v1.gone.example.com', labels: { [LABEL]: 'onstart' } },
      spec: { group: 'gone.example.com', version: 'v1', groupPriorityMinimum: 10, versionPriority: 10 },
    });
    expect(stale.status, stale.text).toBe(201);
    await restartController();
    expect((await get('v1.apps')).body.spec.groupPriorityMinimum).toBe(17800);
    expect((await get('v1.gone.example.com')).status).toBe(404);
  });

  it('puts Available=True back through /status', async () => {
    await waitForRegistration();
    const current = (await get('v1.batch')).body;
    const down = await srv.api('PUT', `${V1}/v1.batch/status`, {
      ...current,
      status: { conditions: [{ type: 'Available', status: 'False', reason: 'Broken', message: 'test' }] },
    });
    expect(down.status, down.text).toBe(200);
    await vi.waitFor(
      async () =>
        expect((await get('v1.batch')).body.status.conditions).toEqual([
          expect.objectContaining({ type: 'Available', status: 'True', reason: 'Local' }),
        ]),
      { timeout: 5000 },
    );
  });

  it('kubectl 1.33 get apiservices shows them Local and Available', async () => {
    await waitForRegistration();
    const config = await writeKubeconfig(srv, 'apiservices');
    const out = await run('/usr/lib/google-cloud-sdk/bin/kubectl.1.33', [
      `--kubeconfig=${config}`,
      'get',
      'apiservices',
    ]);
    expect(out.code, out.stderr).toBe(0);
    const rows = out.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^NAME\s+SERVICE\s+AVAILABLE\s+AGE$/);
    for (const name of ['v1.', 'v1.apps', 'v2.autoscaling', 'v1.batch'])
      expect(rows.find((r) => r.startsWith(`${name} `))).toMatch(
        new RegExp(`^${name.replace('.', '\\.')}\\s+Local\\s+True\\s+\\d+s$`),
      );
  });

  it('keeps one per group version CustomResourceDefinitions serve (automanaged true, 1000/100), as upstream', async () => {
    await waitForRegistration();
    const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const version = (name: string, served: boolean) => ({
      name,
      served,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    });
    const crd = {
      metadata: { name: 'gizmos.registered.example.com' },
      spec: {
        group: 'registered.example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [version('v1', true), version('v2', false)],
      },
    };
    expect((await srv.api('POST', CRDS, crd)).status).toBe(201);
    await vi.waitFor(async () => expect((await get('v1.registered.example.com')).status).toBe(200), {
      timeout: 10_000,
    });
    const { body } = await get('v1.registered.example.com');
    expect(body.metadata.labels).toEqual({ [LABEL]: 'true' });
    expect(body.spec).toEqual({
      group: 'registered.example.com',
      version: 'v1',
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });
    await vi.waitFor(
      async () =>
        expect((await get('v1.registered.example.com')).body.status?.conditions?.[0]).toMatchObject({
          type: 'Available',
          status: 'True',
          reason: 'Local',
        }),
      { timeout: 10_000 },
    );
    expect((await get('v2.registered.example.com')).status).toBe(404);
    // A new leader's start sync keeps it; serving v2 adds its APIService; deleting the definition removes both.
    await restartController();
    expect((await get('v1.registered.example.com')).status).toBe(200);
    const current = (await srv.api('GET', `${CRDS}/${crd.metadata.name}`)).body;
    current.spec.versions[1].served = true;
    expect((await srv.api('PUT', `${CRDS}/${crd.metadata.name}`, current)).status).toBe(200);
    await vi.waitFor(async () => expect((await get('v2.registered.example.com')).status).toBe(200), {
      timeout: 10_000,
    });
    expect((await srv.api('DELETE', `${CRDS}/${crd.metadata.name}`)).status).toBe(200);
    await vi.waitFor(
      async () => {
        expect((await get('v1.registered.example.com')).status).toBe(404);
        expect((await get('v2.registered.example.com')).status).toBe(404);
      },
      { timeout: 10_000 },
    );
  });
});

/**
 * The deployment controller (src/controllers/deployment/) started on an in-process server and
 * seen through the API. No ReplicaSet controller runs: the test plays it, writing each
 * ReplicaSet's status through `/status` as that controller would once its pods are available.
 * A Deployment gets `<name>-<hash>` with revision 1 and the pod-template-hash label and
 * selector; a new image rolls out within maxSurge/maxUnavailable step by step; setting the
 * template back (what `kubectl rollout undo` writes) reuses the first ReplicaSet as revision 3;
 * a paused Deployment does not roll out but still scales; status and conditions as upstream.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { DeploymentController } from '../../src/controllers/deployment/deployment-controller.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const NS = 'deploy-controller';
const DEPLOY = `/apis/apps/v1/namespaces/${NS}/deployments`;
const RS = `/apis/apps/v1/namespaces/${NS}/replicasets`;
let controller: DeploymentController;

interface RSView {
  metadata: {
    name: string;
    uid: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
    generation: number;
  };
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> } };
  };
  status?: { replicas?: number; availableReplicas?: number };
}

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new DeploymentController(srv.running.deps.registry, pino({ level: 'silent' }), { resyncMs: 2_000 });
  controller.start();
});

afterAll(() => controller?.stop());

const listRS = async (): Promise<RSView[]> => (await srv.api('GET', RS)).body.items;
const getDeploy = async (name: string) => (await srv.api('GET', `${DEPLOY}/${name}`)).body;

/** Read-modify-write of a Deployment (retried on conflicts). */
async function editDeployment(name: string, edit: (d: any) => void): Promise<void> {
  for (;;) {
    const d = await getDeploy(name);
    edit(d);
    const res = await srv.api('PUT', `${DEPLOY}/${name}`, d);
    if (res.status === 200) return;
    expect(res.status).toBe(409);
  }
}

/** Play the ReplicaSet controller: every ReplicaSet's pods exist and are available. */
async function settleReplicaSets(): Promise<void> {
  for (const rs of await listRS()) {
    const n = rs.spec.replicas;
    if (rs.status?.replicas === n && rs.status?.availableReplicas === n) continue;
    const status = {
      replicas: n,
      fullyLabeledReplicas: n,
      readyReplicas: n,
      availableReplicas: n,
      observedGeneration: rs.metadata.generation,
    };
    const res = await srv.api('PUT', `${RS}/${rs.metadata.name}/status`, { ...rs, status });
    expect([200, 409]).toContain(res.status);
  }
}

const byName = (list: RSView[]) => Object.fromEntries(list.map((r) => [r.metadata.name, r]));

function deployment(name: string, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
}

describe('deployment controller', () => {
  let first: RSView;
  let second: RSView;

  it('creates <name>-<hash> with revision 1, the pod-template-hash label and selector, and reports it complete', async () => {
    expect((await srv.api('POST', DEPLOY, deployment('web', 'nginx:1'))).status).toBe(201);
    await vi.waitFor(async () => expect(await listRS()).toHaveLength(1), { timeout: 10_000, interval: 100 });
    [first] = (await listRS()) as [RSView];
    const hash = first.metadata.labels['pod-template-hash']!;
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(first.metadata.name).toBe(`web-${hash}`);
    expect(first.spec.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(first.spec.template.metadata.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(first.spec.replicas).toBe(4);
    expect(first.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '4',
      'deployment.kubernetes.io/max-replicas': '5',
    });
    await settleReplicaSets();
    await vi.waitFor(
      async () => {
        const d = await getDeploy('web');
        expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
        expect(d.status).toMatchObject({
          observedGeneration: 1,
          replicas: 4,
          updatedReplicas: 4,
          readyReplicas: 4,
          availableReplicas: 4,
        });
        expect(d.status.unavailableReplicas).toBeUndefined();
        const c = Object.fromEntries(d.status.conditions.map((x: any) => [x.type, x]));
        expect(c.Available).toMatchObject({
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        });
        expect(c.Progressing).toMatchObject({
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${first.metadata.name}" has successfully progressed.`,
        });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('rolls a new image out within maxSurge 1 and maxUnavailable 1 as the ReplicaSets become available', async () => {
    await editDeployment('web', (d) => (d.spec.template.spec.containers[0].image = 'nginx:2'));
    await vi.waitFor(async () => expect(await listRS()).toHaveLength(2), { timeout: 10_000, interval: 100 });
    second = (await listRS()).find((r) => r.metadata.name !== first.metadata.name)!;
    expect(second.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
    // before any new pod is available: the new one surges to 1, the old one loses one available
    // pod (4 - maxUnavailable = 3 stay), then the new one takes the freed place (2 + 3 = 4 + maxSurge)
    await vi.waitFor(
      async () => {
        const sets = byName(await listRS());
        expect([sets[second.metadata.name]!.spec.replicas, sets[first.metadata.name]!.spec.replicas]).toEqual([2, 3]);
      },
      { timeout: 10_000, interval: 100 },
    );
    const seen: string[] = [];
    for (let step = 0; step < 20; step++) {
      const sets = byName(await listRS());
      const [n, o] = [sets[second.metadata.name]!, sets[first.metadata.name]!];
      seen.push(`${n.spec.replicas}/${o.spec.replicas}`);
      expect(n.spec.replicas + o.spec.replicas).toBeLessThanOrEqual(5); // replicas + maxSurge
      if (n.spec.replicas === 4 && o.spec.replicas === 0) break;
      await settleReplicaSets();
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen.at(-1)).toBe('4/0');
    await settleReplicaSets();
    await vi.waitFor(
      async () => {
        const d = await getDeploy('web');
        expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('2');
        expect(d.status).toMatchObject({
          observedGeneration: 2,
          replicas: 4,
          updatedReplicas: 4,
          availableReplicas: 4,
        });
        const p = d.status.conditions.find((x: any) => x.type === 'Progressing');
        expect(p).toMatchObject({
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${second.metadata.name}" has successfully progressed.`,
        });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('reuses the first ReplicaSet as revision 3 when the template is set back (kubectl rollout undo)', async () => {
    const template = structuredClone(first.spec.template) as any;
    delete template.metadata.labels['pod-template-hash'];
    await editDeployment('web', (d) => (d.spec.template = template));
    await vi.waitFor(
      async () => {
        const sets = byName(await listRS());
        expect(Object.keys(sets)).toHaveLength(2);
        expect(sets[first.metadata.name]!.metadata.annotations).toMatchObject({
          'deployment.kubernetes.io/revision': '3',
          'deployment.kubernetes.io/revision-history': '1',
        });
        expect(sets[first.metadata.name]!.spec.replicas).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 100 },
    );
    for (let step = 0; step < 20; step++) {
      const sets = byName(await listRS());
      if (sets[first.metadata.name]!.spec.replicas === 4 && sets[second.metadata.name]!.spec.replicas === 0) break;
      await settleReplicaSets();
      await new Promise((r) => setTimeout(r, 300));
    }
    await settleReplicaSets();
    await vi.waitFor(
      async () => {
        const d = await getDeploy('web');
        expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('3');
        expect(d.status).toMatchObject({ replicas: 4, updatedReplicas: 4, availableReplicas: 4 });
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('does not roll a paused Deployment out, but scales it, and rolls out once resumed', async () => {
    await editDeployment('web', (d) => {
      d.spec.paused = true;
      d.spec.template.spec.containers[0].image = 'nginx:3';
    });
    await vi.waitFor(
      async () => {
        const p = (await getDeploy('web')).status.conditions.find((x: any) => x.type === 'Progressing');
        expect(p).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' });
      },
      { timeout: 10_000, interval: 100 },
    );
    await editDeployment('web', (d) => (d.spec.replicas = 6));
    await vi.waitFor(async () => expect(byName(await listRS())[first.metadata.name]!.spec.replicas).toBe(6), {
      timeout: 10_000,
      interval: 100,
    });
    expect(await listRS()).toHaveLength(2);
    await editDeployment('web', (d) => (d.spec.paused = false));
    await vi.waitFor(async () => expect(await listRS()).toHaveLength(3), { timeout: 10_000, interval: 100 });
    const third = (await listRS()).find((r) => ![first.metadata.name, second.metadata.name].includes(r.metadata.name))!;
    expect(third.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
  });

  it('keeps only revisionHistoryLimit old ReplicaSets once a rollout completes', async () => {
    await editDeployment('web', (d) => (d.spec.revisionHistoryLimit = 0));
    for (let step = 0; step < 30; step++) {
      const sets = await listRS();
      if (sets.length === 1) break;
      await settleReplicaSets();
      await new Promise((r) => setTimeout(r, 300));
    }
    const sets = await listRS();
    expect(sets).toHaveLength(1);
    expect(sets[0]!.metadata.annotations['deployment.kubernetes.io/revision']).toBe('4');
    expect(sets[0]!.spec.replicas).toBe(6);
  });
  it('records ScalingReplicaSet events about the Deployment', async () => {
    const events = (await srv.api('GET', `/api/v1/namespaces/${NS}/events`)).body.items;
    const mine = events.filter((e: any) => e.involvedObject.kind === 'Deployment' && e.involvedObject.name === 'web');
    expect(mine.map((e: any) => e.message)).toContain(`Scaled up replica set ${first.metadata.name} from 0 to 4`);
    expect(mine.every((e: any) => e.source.component === 'deployment-controller')).toBe(true);
  });
});

describe('claiming ReplicaSets', () => {
  it('adopts an orphan with the same template as its new ReplicaSet, and releases it when its labels stop matching', async () => {
    const template = { metadata: { labels: { app: 'adopt' } }, spec: { containers: [{ name: 'c', image: 'x' }] } };
    const orphan = {
      metadata: { name: 'orphan', labels: { app: 'adopt' } },
      spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template },
    };
    expect((await srv.api('POST', RS, orphan)).status).toBe(201);
    const created = await srv.api('POST', DEPLOY, {
      metadata: { name: 'adopt' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'adopt' } }, template },
    });
    expect(created.status).toBe(201);
    await vi.waitFor(
      async () => {
        const rs = (await srv.api('GET', `${RS}/orphan`)).body;
        expect(rs.metadata.ownerReferences).toEqual([
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'adopt',
            uid: created.body.metadata.uid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ]);
        expect(rs.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
      },
      { timeout: 10_000, interval: 100 },
    );
    const adopted = (await listRS()).filter((r) => r.metadata.labels.app === 'adopt');
    expect(adopted.map((r) => r.metadata.name)).toEqual(['orphan']);

    const rs = (await srv.api('GET', `${RS}/orphan`)).body;
    rs.metadata.labels = { app: 'elsewhere' };
    expect((await srv.api('PUT', `${RS}/orphan`, rs)).status).toBe(200);
    await vi.waitFor(
      async () => {
        expect((await srv.api('GET', `${RS}/orphan`)).body.metadata.ownerReferences ?? []).toEqual([]);
        const replacement = (await listRS()).filter((r) => r.metadata.labels.app === 'adopt');
        expect(replacement).toHaveLength(1);
        expect(replacement[0]!.metadata.name).toMatch(/^adopt-/);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

/**
 * The StatefulSet controller (src/controllers/statefulset/) started on an in-process server
 * with 2 simulated nodes (which run and ready the pods, and remove deleted ones after their
 * grace period) and seen through the API: a StatefulSet `web` of 3 with a volumeClaimTemplate
 * makes web-0, web-1, web-2 in order, each only once its predecessor is Ready, with their
 * claims and identity; an image change rolls web-2, web-1, web-0; scaling to 1 deletes web-2
 * then web-1 and keeps their claims (Retain); `kubectl rollout status statefulset/web` follows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { StatefulSetController } from '../../src/controllers/statefulset/controller.js';
import { useTestServer, writeKubeconfig } from '../helpers/in-process.js';
import { run } from '../helpers/run.js';

// The server's own statefulset controller is left out: the test runs one with a short resync.
const srv = useTestServer({ simulatedNodes: 2, controllers: ['*', '-statefulset'] });
const NS = 'sts-controller';
const STS = `/apis/apps/v1/namespaces/${NS}/statefulsets`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
let controller: StatefulSetController;
let kubeconfig: string;

interface PodView {
  metadata: { name: string; uid: string; labels: Record<string, string>; deletionTimestamp?: string };
  spec: {
    hostname?: string;
    subdomain?: string;
    containers: { image: string }[];
    volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[];
  };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}

beforeAll(async () => {
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  controller = new StatefulSetController(srv.running.deps.registry, pino({ level: 'silent' }), { resyncMs: 2_000 });
  controller.start();
  kubeconfig = await writeKubeconfig(srv, 'statefulset', { namespace: NS });
});

afterAll(() => controller?.stop());

const listPods = async (): Promise<PodView[]> => (await srv.api('GET', `${PODS}?labelSelector=app%3Dweb`)).body.items;
const getSet = async () => (await srv.api('GET', `${STS}/web`)).body;
const ready = (p?: PodView) => p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** Poll `probe` every 50 ms until it returns a value other than undefined; throws after `ms`. */
async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `kubectl rollout status`'s reading of a StatefulSet (kubectl's StatefulSetStatusViewer): done
 * once observed, all replicas ready, and, with a rollingUpdate (apps/v1 defaults one with
 * partition 0), replicas - partition pods updated; else once currentRevision is updateRevision.
 */
function rolledOut(sts: any): boolean {
  const st = sts.status ?? {};
  if (!st.observedGeneration || sts.metadata.generation > st.observedGeneration) return false;
  if ((st.readyReplicas ?? 0) < sts.spec.replicas) return false;
  const rolling = sts.spec.updateStrategy?.rollingUpdate;
  if (rolling) return (st.updatedReplicas ?? 0) >= sts.spec.replicas - (rolling.partition ?? 0);
  return st.updateRevision === st.currentRevision;
}

describe('the StatefulSet controller with simulated nodes', () => {
  it('creates web-0, web-1, web-2 in order, each once its predecessor is Ready, with their claims', async () => {
    const set = {
      metadata: { name: 'web' },
      spec: {
        replicas: 3,
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'nginx', image: 'nginx:1.26' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    };
    expect((await srv.api('POST', STS, set)).status).toBe(201);
    const readyWhenSeen = new Map<string, boolean>();
    await until(async () => {
      const pods = await listPods();
      const byName = new Map(pods.map((p) => [p.metadata.name, p]));
      for (const p of pods) {
        const ord = Number(p.metadata.name.split('-')[1]);
        if (!readyWhenSeen.has(p.metadata.name))
          readyWhenSeen.set(p.metadata.name, ord === 0 || ready(byName.get(`web-${ord - 1}`)));
      }
      const sts = await getSet();
      return sts.status?.readyReplicas === 3 ? true : undefined;
    });
    expect([...readyWhenSeen]).toEqual([
      ['web-0', true],
      ['web-1', true],
      ['web-2', true],
    ]);
    const sts = await getSet();
    expect(sts.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    });
    expect(sts.status.observedGeneration).toBe(sts.metadata.generation);
    expect(sts.status.currentRevision).toBe(sts.status.updateRevision);
    const pods = await listPods();
    for (const p of pods) {
      const ord = p.metadata.name.split('-')[1];
      expect(p.metadata.labels).toMatchObject({
        'statefulset.kubernetes.io/pod-name': p.metadata.name,
        'apps.kubernetes.io/pod-index': ord,
        'controller-revision-hash': sts.status.updateRevision,
      });
      expect([p.spec.hostname, p.spec.subdomain]).toEqual([p.metadata.name, 'web']);
      expect(p.spec.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName).toBe(`data-web-${ord}`);
    }
    const claims = (await srv.api('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims`)).body.items;
    expect(claims.map((c: any) => c.metadata.name).sort()).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
    expect(claims[0].metadata.labels).toEqual({ app: 'web' });
    const revs = (await srv.api('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revs.map((r: any) => [r.metadata.name, r.revision])).toEqual([[sts.status.updateRevision, 1]]);
    const events = (await srv.api('GET', `/api/v1/namespaces/${NS}/events`)).body.items;
    expect(events.map((e: any) => e.message)).toContain('create Pod web-0 in StatefulSet web successful');
    expect(events.find((e: any) => e.reason === 'SuccessfulCreate')?.source).toEqual({
      component: 'statefulset-controller',
    });
  });

  it('rolls an image change out web-2, web-1, web-0, as kubectl rollout status sees it', async () => {
    const before = new Map((await listPods()).map((p) => [p.metadata.name, p.metadata.uid]));
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    const res = await srv.api('PATCH', `${STS}/web`, patch, {
      'content-type': 'application/strategic-merge-patch+json',
    });
    expect(res.status).toBe(200);
    const replaced: string[] = [];
    const done = await until(async () => {
      for (const p of await listPods())
        if (before.get(p.metadata.name) !== p.metadata.uid && !replaced.includes(p.metadata.name))
          replaced.push(p.metadata.name);
      const sts = await getSet();
      return rolledOut(sts) && sts.status.currentRevision === sts.status.updateRevision ? sts : undefined;
    }, 18_000);
    expect(replaced).toEqual(['web-2', 'web-1', 'web-0']);
    expect((await listPods()).map((p) => p.spec.containers[0].image)).toEqual([
      'nginx:1.27',
      'nginx:1.27',
      'nginx:1.27',
    ]);
    const revs = (await srv.api('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    expect(revs.map((r: any) => r.revision).sort()).toEqual([1, 2]);
    expect(revs.find((r: any) => r.revision === 2).metadata.name).toBe(done.status.currentRevision);
    const status = await run(KUBECTL, [
      `--kubeconfig=${kubeconfig}`,
      'rollout',
      'status',
      'statefulset/web',
      '--timeout=10s',
    ]);
    expect(status.code, status.stderr).toBe(0);
    // What kubectl prints on a cluster for an apps/v1 set (rollingUpdate.partition defaulted to 0).
    expect(status.stdout).toBe('partitioned roll out complete: 3 new pods have been updated...\n');
  }, 25_000);

  it('kubectl rollout history lists both revisions, and rollout undo brings the first back as revision 3', async () => {
    const k = (...args: string[]) => run(KUBECTL, [`--kubeconfig=${kubeconfig}`, ...args]);
    const history = await k('rollout', 'history', 'statefulset/web');
    expect(history.code, history.stderr).toBe(0);
    expect(
      history.stdout
        .trim()
        .split('\n')
        .slice(-2)
        .map((l) => l.trim().split(/\s+/)[0]),
    ).toEqual(['1', '2']);
    const undo = await k('rollout', 'undo', 'statefulset/web');
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain('statefulset.apps/web rolled back');
    await until(async () => {
      const sts = await getSet();
      const images = (await listPods()).map((p) => p.spec.containers[0].image);
      const back = images.length === 3 && images.every((i) => i === 'nginx:1.26');
      return back && rolledOut(sts) && sts.status.currentRevision === sts.status.updateRevision ? true : undefined;
    }, 18_000);
    const revs = (await srv.api('GET', `/apis/apps/v1/namespaces/${NS}/controllerrevisions`)).body.items;
    const sts = await getSet();
    expect(revs.map((r: any) => r.revision).sort()).toEqual([2, 3]);
    expect(revs.find((r: any) => r.revision === 3).metadata.name).toBe(sts.status.updateRevision);
  }, 25_000);

  it('scales to 1 by deleting web-2, then web-1, keeping their claims', async () => {
    const res = await srv.api(
      'PATCH',
      `${STS}/web`,
      { spec: { replicas: 1 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
    const seen: string[] = [];
    await until(async () => {
      const pods = await listPods();
      const names = pods.map((p) => p.metadata.name);
      for (const p of pods)
        if (p.metadata.deletionTimestamp && !seen.includes(p.metadata.name)) {
          // web-1 is deleted only once web-2 is gone.
          if (p.metadata.name === 'web-1') expect(names).not.toContain('web-2');
          seen.push(p.metadata.name);
        }
      const sts = await getSet();
      return names.length === 1 && sts.status?.replicas === 1 ? true : undefined;
    });
    expect(seen).toEqual(['web-2', 'web-1']);
    expect((await listPods()).map((p) => p.metadata.name)).toEqual(['web-0']);
    const claims = (await srv.api('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims`)).body.items;
    expect(claims).toHaveLength(3);
  });

  it('with whenScaled and whenDeleted Delete, the garbage collector removes the claims of scaled-down pods and of the set', async () => {
    const claimNames = async () =>
      (await srv.api('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims?labelSelector=app%3Ddb`)).body.items
        .map((c: any) => c.metadata.name)
        .sort();
    const set = {
      metadata: { name: 'db' },
      spec: {
        replicas: 2,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Delete' },
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'db', image: 'postgres:17' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    };
    expect((await srv.api('POST', STS, set)).status).toBe(201);
    await until(async () => ((await srv.api('GET', `${STS}/db`)).body.status?.readyReplicas === 2 ? true : undefined));
    const owners = async (name: string) =>
      (await srv.api('GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/${name}`)).body.metadata.ownerReferences;
    expect(await owners('data-db-1')).toEqual([
      expect.objectContaining({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }),
    ]);
    expect(
      (
        await srv.api(
          'PATCH',
          `${STS}/db`,
          { spec: { replicas: 1 } },
          { 'content-type': 'application/merge-patch+json' },
        )
      ).status,
    ).toBe(200);
    // The claim of db-1 is handed to the pod as it is condemned, and goes with it.
    await until(async () => ((await claimNames()).join() === 'data-db-0' ? true : undefined));
    expect((await srv.api('DELETE', `${STS}/db`)).status).toBe(200);
    await until(async () => ((await claimNames()).length === 0 ? true : undefined));
  }, 25_000);
});

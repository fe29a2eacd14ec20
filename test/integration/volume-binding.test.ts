/**
 * PersistentVolumeClaims that bind, on an in-process server with 2 simulated nodes: the
 * default StorageClass `standard` (Immediate, provisioner sim.ck.io/simulated), the
 * PV controller (src/controllers/volume/pv-binder), the simulated provisioner and a scheduler
 * with VolumeBinding, all started here. A claim without class gets `standard` (DefaultStorageClass
 * admission) and is bound at once, no pod needed; a claim of a WaitForFirstConsumer class waits
 * for its first consumer; a pod using it is scheduled, its claim provisioned on the pod's node
 * and bound, and the pod runs; a StatefulSet's claims bind and its
 * pods become Ready; a volume made by hand binds to a matching claim and is Released (Retain)
 * when the claim goes, while a provisioned volume (Delete) is deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { PersistentVolumeBinder } from '../../src/controllers/volume/pv-binder/controller.js';
import { ensureDefaultStorageClass } from '../../src/controllers/volume/simulated-provisioner.js';
import { Scheduler } from '../../src/controllers/scheduler/scheduler.js';
import { PvProtectionController, PvcProtectionController } from '../../src/controllers/volume/protection.js';
import { EphemeralVolumeController } from '../../src/controllers/volume/ephemeral-volume.js';
import { installStorageObjectInUseProtection } from '../../src/admission/storage-object-in-use-protection.js';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer({
  simulatedNodes: 2,
  scheduler: 'false',
  // The server's simulated provisioner and default class stay; these are started here.
  controllers: ['*', '-persistentvolume-binder', '-pvc-protection', '-pv-protection', '-ephemeral-volume'],
});
const NS = 'volumes';
const CLAIMS = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
let stops: (() => void)[] = [];

beforeAll(async () => {
  const registry = srv.running.deps.registry;
  const logger = pino({ level: 'silent' });
  // The server made the class already (with simulated nodes), or this does.
  await ensureDefaultStorageClass(registry);
  expect(await ensureDefaultStorageClass(registry)).toBe(false);
  const binder = new PersistentVolumeBinder(registry, logger, { resyncMs: 1_000 });
  const scheduler = new Scheduler(registry, logger, {
    volumeBinding: true,
    volumeBindPollMs: 100,
    flushIntervalMs: 1_000,
  });
  // StorageObjectInUseProtection with both protection controllers (never one without the other).
  installStorageObjectInUseProtection(registry);
  const pvcProtection = new PvcProtectionController(registry, logger);
  const pvProtection = new PvProtectionController(registry, logger);
  const ephemeral = new EphemeralVolumeController(registry, logger);
  const all = [binder, scheduler, pvcProtection, pvProtection, ephemeral];
  for (const c of all) c.start();
  stops = all.map((c) => () => c.stop());
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
});

afterAll(() => stops.forEach((s) => s()));

async function until<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const claimSpec = (extra: Record<string, unknown> = {}) => ({
  accessModes: ['ReadWriteOnce'],
  resources: { requests: { storage: '1Gi' } },
  ...extra,
});
const get = async (path: string) => (await srv.api('GET', path)).body;
const events = async (name: string) =>
  ((await get(`/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3D${name}`)).items ?? []).map(
    (e: any) => `${e.reason}: ${e.message}`,
  );

describe('PersistentVolumeClaims with simulated nodes', () => {
  it('a claim without a class gets the default class and is bound at once, with no pod (Immediate)', async () => {
    const created = await srv.api('POST', CLAIMS, { metadata: { name: 'cache' }, spec: claimSpec() });
    expect(created.status).toBe(201);
    expect(created.body.spec.storageClassName).toBe('standard');
    const bound = await until(async () => {
      const c = await get(`${CLAIMS}/cache`);
      return c.status?.phase === 'Bound' ? c : undefined;
    });
    const pv = await get(`/api/v1/persistentvolumes/${bound.spec.volumeName}`);
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec.nodeAffinity).toBeUndefined();
    expect(bound.metadata.annotations['volume.kubernetes.io/selected-node']).toBeUndefined();
  });

  it('a claim of a WaitForFirstConsumer class is provisioned on its first consumer node and bound; the pod runs', async () => {
    const wfc = await srv.api('POST', '/apis/storage.k8s.io/v1/storageclasses', {
      metadata: { name: 'local-wfc' },
      provisioner: 'sim.ck.io/simulated',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    expect(wfc.status).toBe(201);
    const created = await srv.api('POST', CLAIMS, {
      metadata: { name: 'data' },
      spec: claimSpec({ storageClassName: 'local-wfc' }),
    });
    expect(created.status).toBe(201);
    await until(
      async () =>
        (await events('data')).includes(
          'WaitForFirstConsumer: waiting for first consumer to be created before binding',
        ) || undefined,
    );
    expect((await get(`${CLAIMS}/data`)).status.phase).toBe('Pending');

    const pod = {
      metadata: { name: 'app' },
      spec: {
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
      },
    };
    expect((await srv.api('POST', PODS, pod)).status).toBe(201);
    const running = await until(async () => {
      const p = await get(`${PODS}/app`);
      return p.status?.phase === 'Running' ? p : undefined;
    });
    const claim = await get(`${CLAIMS}/data`);
    expect(claim.status).toMatchObject({
      phase: 'Bound',
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
    });
    expect(claim.spec.volumeName).toBe(`pvc-${claim.metadata.uid}`);
    expect(claim.metadata.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.kubernetes.io/selected-node': running.spec.nodeName,
      'volume.kubernetes.io/storage-provisioner': 'sim.ck.io/simulated',
    });
    const pv = await get(`/api/v1/persistentvolumes/${claim.spec.volumeName}`);
    expect(pv.status.phase).toBe('Bound');
    expect(pv.spec).toMatchObject({
      storageClassName: 'local-wfc',
      persistentVolumeReclaimPolicy: 'Delete',
      claimRef: { name: 'data', namespace: NS, uid: claim.metadata.uid },
      hostPath: { path: `/var/sim-volumes/${NS}/data` },
    });
    expect(pv.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values).toEqual([
      running.spec.nodeName,
    ]);
    expect(pv.metadata.annotations['pv.kubernetes.io/provisioned-by']).toBe('sim.ck.io/simulated');
    const said = await events('data');
    expect(said).toContain(
      "ExternalProvisioning: Waiting for a volume to be created either by the external provisioner 'sim.ck.io/simulated' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    );
    expect(said).toContain(`ProvisioningSucceeded: Successfully provisioned volume ${pv.metadata.name}`);

    expect(claim.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);

    // The claim is kept while the pod uses it; once the pod is gone, the claim goes and the
    // provisioned volume (reclaimPolicy Delete) is deleted.
    expect((await srv.api('DELETE', `${CLAIMS}/data`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    const kept = await get(`${CLAIMS}/data`);
    expect(kept.metadata.deletionTimestamp).toBeDefined();
    expect(kept.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    await srv.api('DELETE', `${PODS}/app?gracePeriodSeconds=0`);
    await until(async () => ((await srv.api('GET', `${CLAIMS}/data`)).status === 404 ? true : undefined));
    await until(async () =>
      (await srv.api('GET', `/api/v1/persistentvolumes/${pv.metadata.name}`)).status === 404 ? true : undefined,
    );
  });

  it('a pod with an ephemeral volume gets its own claim, bound, and runs', async () => {
    const template = { spec: claimSpec() };
    const pod = {
      metadata: { name: 'eph' },
      spec: {
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }],
      },
    };
    const created = await srv.api('POST', PODS, pod);
    expect(created.status).toBe(201);
    await until(async () => ((await get(`${PODS}/eph`)).status?.phase === 'Running' ? true : undefined));
    const claim = await get(`${CLAIMS}/eph-scratch`);
    expect(claim.status.phase).toBe('Bound');
    expect(claim.spec.storageClassName).toBe('standard');
    expect(claim.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'eph',
        uid: created.body.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('a pod whose claim is missing is unschedulable with upstream message', async () => {
    const pod = {
      metadata: { name: 'orphan' },
      spec: {
        containers: [{ name: 'c', image: 'busybox' }],
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'nope' } }],
      },
    };
    expect((await srv.api('POST', PODS, pod)).status).toBe(201);
    const cond = await until(async () =>
      (await get(`${PODS}/orphan`)).status?.conditions?.find(
        (c: any) => c.type === 'PodScheduled' && c.reason === 'Unschedulable',
      ),
    );
    expect(cond.message).toBe(
      '0/2 nodes are available: persistentvolumeclaim "nope" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });

  it('a StatefulSet with a volumeClaimTemplate gets Bound claims and Ready pods', async () => {
    const set = {
      metadata: { name: 'db' },
      spec: {
        replicas: 2,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: {
            containers: [{ name: 'c', image: 'postgres', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
          },
        },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: claimSpec() }],
      },
    };
    expect((await srv.api('POST', `/apis/apps/v1/namespaces/${NS}/statefulsets`, set)).status).toBe(201);
    await until(
      async () =>
        (await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/db`)).status?.readyReplicas === 2 ? true : undefined,
      18_000,
    );
    for (const name of ['data-db-0', 'data-db-1']) {
      const claim = await get(`${CLAIMS}/${name}`);
      expect(claim.status.phase).toBe('Bound');
      expect(claim.spec.storageClassName).toBe('standard');
    }
  }, 25_000);

  it('a volume made by hand binds to a matching claim and is Released (Retain) when the claim goes', async () => {
    const pv = {
      metadata: { name: 'manual-5g', labels: { tier: 'gold' } },
      spec: { capacity: { storage: '5Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/manual' } },
    };
    expect((await srv.api('POST', '/api/v1/persistentvolumes', pv)).status).toBe(201);
    await until(async () =>
      (await get('/api/v1/persistentvolumes/manual-5g')).status?.phase === 'Available' ? true : undefined,
    );
    const spec = claimSpec({ storageClassName: '', selector: { matchLabels: { tier: 'gold' } } });
    expect((await srv.api('POST', CLAIMS, { metadata: { name: 'manual' }, spec })).status).toBe(201);
    const claim = await until(async () => {
      const c = await get(`${CLAIMS}/manual`);
      return c.status?.phase === 'Bound' ? c : undefined;
    });
    expect(claim.spec.volumeName).toBe('manual-5g');
    expect(claim.status.capacity).toEqual({ storage: '5Gi' });
    const bound = await get('/api/v1/persistentvolumes/manual-5g');
    expect(bound.status.phase).toBe('Bound');
    expect(bound.spec.claimRef).toMatchObject({
      kind: 'PersistentVolumeClaim',
      name: 'manual',
      uid: claim.metadata.uid,
    });

    expect((await srv.api('DELETE', `${CLAIMS}/manual`)).status).toBe(200);
    await until(async () =>
      (await get('/api/v1/persistentvolumes/manual-5g')).status?.phase === 'Released' ? true : undefined,
    );
  });
});

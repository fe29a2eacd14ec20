/**
 * Ported from upstream pkg/scheduler/framework/plugins/volumebinding volume_binding_test.go
 * (TestVolumeBinding: PreFilter and Filter rows) and binder_test.go (FindPodVolumes: bound
 * claims, WaitForFirstConsumer matching and provisioning, selected node), with the FitError
 * message a PreFilter refusal gives and Reserve's assumptions.
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StorageClass } from '../../resources/storageclasses/storageclasses.schema.js';
import type { ClusterView } from './framework.js';
import { schedulePod } from './schedule-one.js';
import { REASONS, volumeBinding } from './volume-binding.js';
import { VolumeCache } from './volume-cache.js';
import { assumePodVolumes } from './volume-prebind.js';

const WFC = 'wait';
const IMMEDIATE = 'immediate';
const NO_PROV = 'no-provisioner';

const node = (name: string, labels: Record<string, string> = {}): Node =>
  ({
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  }) as Node;

const cls = (name: string, mode: string, provisioner = 'sim.ck.io/simulated', extra = {}) =>
  ({ metadata: { name }, provisioner, volumeBindingMode: mode, ...extra }) as StorageClass;

function pvc(
  name: string,
  className: string,
  volumeName = '',
  annotations: Record<string, string> = {},
): PersistentVolumeClaim {
  const ann = volumeName ? { 'pv.kubernetes.io/bind-completed': 'yes', ...annotations } : annotations;
  return {
    metadata: { name, namespace: 'default', uid: `${name}-uid`, resourceVersion: '1', annotations: ann },
    spec: {
      storageClassName: className,
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      ...(volumeName ? { volumeName } : {}),
    },
  } as PersistentVolumeClaim;
}

function pv(name: string, className: string, hostname?: string, claim?: string): PersistentVolume {
  return {
    metadata: { name, uid: `${name}-uid`, resourceVersion: '1' },
    spec: {
      storageClassName: className,
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
      ...(hostname
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [hostname] }] },
                ],
              },
            },
          }
        : {}),
      ...(claim ? { claimRef: { name: claim, namespace: 'default', uid: `${claim}-uid` } } : {}),
    },
    status: { phase: claim ? 'Bound' : 'Available' },
  } as PersistentVolume;
}

const pod = (...claims: string[]): Pod =>
  ({
    metadata: { name: 'pod-a', namespace: 'default', uid: 'pod-a-uid' },
    spec: {
      containers: [],
      volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
    },
  }) as Pod;

function world(claims: PersistentVolumeClaim[], volumes: PersistentVolume[], nodes: Node[]) {
  const cache = new VolumeCache();
  for (const c of [
    cls(WFC, 'WaitForFirstConsumer'),
    cls(IMMEDIATE, 'Immediate'),
    cls(NO_PROV, 'WaitForFirstConsumer', 'kubernetes.io/no-provisioner'),
  ])
    cache.setClass(c);
  for (const c of claims) cache.setClaim(c);
  for (const v of volumes) cache.setVolume(v);
  const view: ClusterView = {
    nodes: nodes.map((n) => ({ node: n, pods: [] })),
    namespaceLabels: () => undefined,
    volumes: cache,
  };
  return { cache, view };
}

/** PreFilter's message, or each node's Filter reasons. */
function run(p: Pod, claims: PersistentVolumeClaim[], volumes: PersistentVolume[], nodes = [node('node-a')]) {
  const { view } = world(claims, volumes, nodes);
  const pre = volumeBinding.preFilter!(p, view);
  if (pre) return pre;
  const check = volumeBinding.prepare(p, view);
  return view.nodes.map((n) => check(n)?.reasons ?? []);
}

describe('VolumeBinding PreFilter and Filter (TestVolumeBinding)', () => {
  it('pod has no PVCs: passes', () => {
    expect(run(pod(), [], [])).toEqual([[]]);
  });
  it('all bound: passes', () => {
    expect(run(pod('pvc-a'), [pvc('pvc-a', WFC, 'pv-a')], [pv('pv-a', WFC, undefined, 'pvc-a')])).toEqual([[]]);
  });
  it('PVC does not exist; part of PVCs do not exist', () => {
    expect(run(pod('pvc-a'), [], [])).toBe('persistentvolumeclaim "pvc-a" not found');
    expect(run(pod('pvc-a', 'pvc-b'), [pvc('pvc-a', WFC, 'pv-a')], [pv('pv-a', WFC, undefined, 'pvc-a')])).toBe(
      'persistentvolumeclaim "pvc-b" not found',
    );
  });
  it('PVC being deleted', () => {
    const c = pvc('pvc-a', WFC);
    c.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect(run(pod('pvc-a'), [c], [])).toBe('persistentvolumeclaim "pvc-a" is being deleted');
  });
  it('immediate claims not bound', () => {
    expect(run(pod('pvc-a'), [pvc('pvc-a', IMMEDIATE)], [])).toBe(REASONS.immediate);
  });
  it('unbound claims no matches (class cannot provision)', () => {
    expect(run(pod('pvc-a'), [pvc('pvc-a', NO_PROV)], [])).toEqual([[REASONS.bindConflict]]);
  });
  it('bound and unbound unsatisfied', () => {
    const claims = [pvc('pvc-a', WFC, 'pv-a'), pvc('pvc-b', NO_PROV)];
    expect(run(pod('pvc-a', 'pvc-b'), claims, [pv('pv-a', WFC, 'node-b', 'pvc-a')])).toEqual([
      [REASONS.nodeConflict, REASONS.bindConflict],
    ]);
  });
  it('pv not found', () => {
    expect(run(pod('pvc-a'), [pvc('pvc-a', WFC, 'pv-a')], [])).toEqual([[REASONS.pvNotExist]]);
  });
  it('local volumes: only the node a free volume is on fits when the class cannot provision', () => {
    const nodes = [node('node-a'), node('node-b')];
    expect(run(pod('pvc-a'), [pvc('pvc-a', NO_PROV)], [pv('pv-a', NO_PROV, 'node-b')], nodes)).toEqual([
      [REASONS.bindConflict],
      [],
    ]);
  });
  it('a claim whose provisioning chose a node fits that node only', () => {
    const c = pvc('pvc-a', WFC, '', { 'volume.kubernetes.io/selected-node': 'node-b' });
    expect(run(pod('pvc-a'), [c], [], [node('node-a'), node('node-b')])).toEqual([[REASONS.bindConflict], []]);
  });
  it("a class's allowedTopologies limit where it provisions", () => {
    const { view, cache } = world(
      [pvc('pvc-a', 'zoned')],
      [],
      [node('node-a', { zone: 'a' }), node('node-b', { zone: 'b' })],
    );
    cache.setClass(
      cls('zoned', 'WaitForFirstConsumer', 'p', {
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['b'] }] }],
      }),
    );
    const check = volumeBinding.prepare(pod('pvc-a'), view);
    expect(view.nodes.map((n) => check(n)?.reasons ?? [])).toEqual([[REASONS.bindConflict], []]);
  });
});

describe('the FitError message of a PreFilter refusal', () => {
  it('reports the message once, and preemption as not helpful', () => {
    const { view } = world([], [], [node('node-a'), node('node-b')]);
    expect(schedulePod(pod('x'), view)).toMatchObject({
      kind: 'unschedulable',
      message:
        '0/2 nodes are available: persistentvolumeclaim "x" not found. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    });
  });
});

describe('Reserve (AssumePodVolumes)', () => {
  it('binds a free volume the node reaches, or provisions there; the chosen volume is not chosen again', () => {
    const claims = [pvc('pvc-a', WFC), pvc('pvc-b', WFC)];
    const { cache } = world(claims, [pv('pv-1', WFC, 'node-a')], [node('node-a')]);
    const plan = assumePodVolumes(pod('pvc-a'), node('node-a'), cache)!;
    expect(plan.bindings.map((v) => [v.metadata.name, v.spec?.claimRef?.name])).toEqual([['pv-1', 'pvc-a']]);
    expect(plan.provisions).toEqual([]);
    const second = assumePodVolumes(
      { ...pod('pvc-b'), metadata: { name: 'pod-b', namespace: 'default' } } as Pod,
      node('node-a'),
      cache,
    )!;
    expect(second.bindings).toEqual([]);
    expect(second.provisions.map((c) => c.metadata.annotations?.['volume.kubernetes.io/selected-node'])).toEqual([
      'node-a',
    ]);
    expect(cache.claim('default', 'pvc-b')?.metadata.annotations?.['volume.kubernetes.io/selected-node']).toBe(
      'node-a',
    );
  });
  it('nothing to do when all claims are bound', () => {
    const { cache } = world([pvc('pvc-a', WFC, 'pv-a')], [pv('pv-a', WFC, undefined, 'pvc-a')], []);
    expect(assumePodVolumes(pod('pvc-a'), node('node-a'), cache)).toBeUndefined();
  });
});

// Ports upstream pkg/controller/statefulset/stateful_set_utils_test.go TestGetParentNameAndOrdinal,
// TestIsMemberOf, TestIdentityMatches, TestStorageMatches, TestUpdateIdentity, TestUpdateStorage,
// TestIsRunningAndReady, TestAscendingOrdinal, TestOverlappingStatefulSets, TestNewPodControllerRef,
// TestNewStatefulSetPod (pod-index label, hostname, subdomain), TestGetStatefulSetMaxUnavailable.
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { newStatefulSet } from './harness.fixture.js';
import {
  ascendingOrdinal,
  identityMatches,
  isMemberOf,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  overlappingOrder,
  parentNameAndOrdinal,
  podInOrdinalRange,
  podRevision,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  storageMatches,
  updateIdentity,
  updateStorage,
} from './identity.js';
import { isRunningAndReady, maxUnavailableOf } from './kind.js';

const withName = (pod: Pod, name: string): Pod => ({ ...pod, metadata: { ...pod.metadata, name } });

describe('pod identity (stateful_set_utils_test.go)', () => {
  it('TestGetParentNameAndOrdinal', () => {
    const set = newStatefulSet(3);
    expect(parentNameAndOrdinal(newStatefulSetPod(set, 1))).toEqual(['foo', 1]);
    expect(parentNameAndOrdinal(withName(newStatefulSetPod(set, 1), '1-bar'))).toEqual(['', -1]);
    expect(parentNameAndOrdinal(withName(newStatefulSetPod(set, 1), 'web-99999999999'))).toEqual(['web', -1]);
  });

  it('TestIsMemberOf', () => {
    const set = newStatefulSet(3);
    const set2 = { ...newStatefulSet(3), metadata: { ...newStatefulSet(3).metadata, name: 'foo2' } };
    const pod = newStatefulSetPod(set, 1);
    expect(isMemberOf(set, pod)).toBe(true);
    expect(isMemberOf(set2, pod)).toBe(false);
  });

  it('TestIdentityMatches', () => {
    const set = newStatefulSet(3);
    expect(identityMatches(set, newStatefulSetPod(set, 1))).toBe(true);
    expect(identityMatches(set, withName(newStatefulSetPod(set, 1), 'foo'))).toBe(false);
    const otherNs = newStatefulSetPod(set, 1);
    otherNs.metadata.namespace = '';
    expect(identityMatches(set, otherNs)).toBe(false);
    const unlabelled = newStatefulSetPod(set, 1);
    delete unlabelled.metadata.labels![POD_NAME_LABEL];
    expect(identityMatches(set, unlabelled)).toBe(false);
  });

  it('TestStorageMatches', () => {
    const set = newStatefulSet(3);
    expect(storageMatches(set, newStatefulSetPod(set, 1))).toBe(true);
    const noVolumes = newStatefulSetPod(set, 1);
    noVolumes.spec!.volumes = [];
    expect(storageMatches(set, noVolumes)).toBe(false);
    const noClaims = newStatefulSetPod(set, 1);
    noClaims.spec!.volumes = noClaims.spec!.volumes!.map(({ persistentVolumeClaim: _c, ...v }) => v);
    expect(storageMatches(set, noClaims)).toBe(false);
    const wrongClaim = newStatefulSetPod(set, 1);
    for (const v of wrongClaim.spec!.volumes!) if (v.persistentVolumeClaim) v.persistentVolumeClaim.claimName = 'foo';
    expect(storageMatches(set, wrongClaim)).toBe(false);
    expect(storageMatches(set, withName(newStatefulSetPod(set, 1), 'bar'))).toBe(false);
  });

  it('TestUpdateIdentity', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    pod.metadata.namespace = '';
    expect(identityMatches(set, pod)).toBe(false);
    updateIdentity(set, pod);
    expect(identityMatches(set, pod)).toBe(true);
    delete pod.metadata.labels![POD_NAME_LABEL];
    updateIdentity(set, pod);
    expect(identityMatches(set, pod)).toBe(true);
  });

  it('TestUpdateStorage', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    pod.spec!.volumes = [];
    updateStorage(set, pod);
    expect(storageMatches(set, pod)).toBe(true);
    const renamed = newStatefulSetPod(set, 1);
    for (const v of renamed.spec!.volumes!) if (v.persistentVolumeClaim) v.persistentVolumeClaim.claimName = 'foo';
    updateStorage(set, renamed);
    expect(storageMatches(set, renamed)).toBe(true);
    // The pod's own volumes are kept.
    expect(renamed.spec!.volumes!.map((v) => v.name).sort()).toEqual(['datadir', 'home']);
  });

  it('TestNewStatefulSetPod: name, labels, hostname, subdomain, claim volume, controllerRef', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 2);
    expect(pod.metadata.name).toBe('foo-2');
    expect(pod.metadata.generateName).toBeUndefined();
    expect(pod.metadata.labels).toEqual({ foo: 'bar', [POD_NAME_LABEL]: 'foo-2', [POD_INDEX_LABEL]: '2' });
    expect(pod.spec?.hostname).toBe('foo-2');
    expect(pod.spec?.subdomain).toBe('governingsvc');
    expect(pod.spec?.volumes?.find((v) => v.name === 'datadir')?.persistentVolumeClaim?.claimName).toBe(
      'datadir-foo-2',
    );
    expect(pod.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: 'foo',
        uid: 'test',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('newVersionedStatefulSetPod: below the partition at the current revision, above it at the update revision', () => {
    const current = newStatefulSet(5);
    current.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: 3 } };
    const update = structuredClone(current);
    update.spec!.template!.spec!.containers[0].image = 'foo';
    const pod = (ord: number) => newVersionedStatefulSetPod(current, update, 'foo-1', 'foo-2', ord);
    expect([0, 2, 3, 4].map((o) => [podRevision(pod(o)), pod(o).spec?.containers[0].image])).toEqual([
      ['foo-1', 'nginx'],
      ['foo-1', 'nginx'],
      ['foo-2', 'foo'],
      ['foo-2', 'foo'],
    ]);
  });

  it('podInOrdinalRange honours spec.ordinals.start', () => {
    const set = newStatefulSet(3);
    set.spec!.ordinals = { start: 5 };
    expect([4, 5, 7, 8].map((o) => podInOrdinalRange(newStatefulSetPod(set, o), set))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it('TestIsRunningAndReady', () => {
    const set = newStatefulSet(3);
    const pod = newStatefulSetPod(set, 1);
    expect(isRunningAndReady(pod)).toBe(false);
    pod.status = { phase: 'Running' };
    expect(isRunningAndReady(pod)).toBe(false);
    pod.status.conditions = [{ type: 'Ready', status: 'True' }];
    expect(isRunningAndReady(pod)).toBe(true);
  });

  it('TestAscendingOrdinal', () => {
    const set = newStatefulSet(10);
    const pods = [5, 3, 9, 0, 7, 1].map((o) => newStatefulSetPod(set, o));
    expect(ascendingOrdinal(pods).map((p) => p.metadata.name)).toEqual([
      'foo-0',
      'foo-1',
      'foo-3',
      'foo-5',
      'foo-7',
      'foo-9',
    ]);
  });

  it('TestOverlappingStatefulSets: oldest first, by name when created together', () => {
    const at = (name: string, sec: number) => {
      const s = newStatefulSet(1, name);
      s.metadata.creationTimestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString();
      return s;
    };
    const sets = [at('c', 1), at('b', 0), at('a', 1), at('d', 0)];
    expect(overlappingOrder(sets).map((s) => s.metadata.name)).toEqual(['b', 'd', 'a', 'c']);
  });

  it.each([
    [undefined, 10, 1],
    [3, 10, 3],
    [3, 0, 3],
    [0, 0, 1],
    ['10%', 25, 2],
    ['100%', 5, 5],
    ['50%', 5, 2],
    ['10%', 5, 1],
  ] as const)('TestGetStatefulSetMaxUnavailable: %s of %i is %i', (value, replicas, want) => {
    expect(maxUnavailableOf(value, replicas)).toBe(want);
  });
});

/**
 * Ported from upstream pkg/controller/volume/pvcprotection/pvc_protection_controller_test.go
 * (TestPVCProtectionController: which pods keep a claim being deleted), pvprotection's
 * pv_protection_controller_test.go (a Bound volume is kept) and
 * storageobjectinuseprotection/admission_test.go (TestAdmit: finalizers added on create).
 */
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../../registry/hooks.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { addFinalizerOnCreate, PVC_PROTECTION_FINALIZER } from '../../admission/storage-object-in-use-protection.js';
import { isDeletionCandidate, needToAddFinalizer, podUsesClaim, volumeInUse } from './protection.js';

const claim = (name = 'pvc1', owner?: string) =>
  ({
    metadata: {
      name,
      namespace: 'default',
      deletionTimestamp: '2026-01-01T00:00:00Z',
      finalizers: [PVC_PROTECTION_FINALIZER],
      ...(owner
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'pod1', uid: owner, controller: true }] }
        : {}),
    },
  }) as PersistentVolumeClaim;

const pod = (volumes: unknown[], nodeName = 'node1', meta: Record<string, unknown> = {}) =>
  ({
    metadata: { name: 'pod1', namespace: 'default', uid: 'pod1-uid', ...meta },
    spec: { nodeName, containers: [], volumes },
  }) as Pod;
const pvcVolume = (claimName: string) => ({ name: 'vol', persistentVolumeClaim: { claimName } });
const ephemeral = { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: {} } } };

describe('pvc-protection: which pods use a claim (TestPVCProtectionController)', () => {
  it('a scheduled pod with the claim keeps it; an unscheduled one does not', () => {
    expect(podUsesClaim(pod([pvcVolume('pvc1')]), claim())).toBe(true);
    expect(podUsesClaim(pod([pvcVolume('pvc1')], ''), claim())).toBe(false);
  });
  it('a pod using another claim does not keep it', () => {
    expect(podUsesClaim(pod([pvcVolume('other')]), claim())).toBe(false);
  });
  it('an ephemeral volume keeps the claim made for that pod only, and not once the pod is shut down', () => {
    expect(podUsesClaim(pod([ephemeral]), claim('pod1-eph', 'pod1-uid'))).toBe(true);
    expect(podUsesClaim(pod([ephemeral]), claim('pod1-eph', 'someone-else'))).toBe(false);
    const shutDown = pod([ephemeral], 'node1', {
      deletionTimestamp: '2026-01-01T00:00:00Z',
      deletionGracePeriodSeconds: 0,
    });
    expect(podUsesClaim(shutDown, claim('pod1-eph', 'pod1-uid'))).toBe(false);
    expect(
      podUsesClaim({ ...shutDown, spec: { ...shutDown.spec!, volumes: [pvcVolume('pvc1')] } } as Pod, claim()),
    ).toBe(true);
  });
  it('deletion candidates and objects needing the finalizer', () => {
    expect(isDeletionCandidate(claim(), PVC_PROTECTION_FINALIZER)).toBe(true);
    expect(needToAddFinalizer(claim(), PVC_PROTECTION_FINALIZER)).toBe(false);
    const live = { metadata: { name: 'x' } } as PersistentVolumeClaim;
    expect(needToAddFinalizer(live, PVC_PROTECTION_FINALIZER)).toBe(true);
    expect(isDeletionCandidate(live, PVC_PROTECTION_FINALIZER)).toBe(false);
  });
});

describe('pv-protection (TestPVProtectionController)', () => {
  it('a Bound volume is in use; Available and Released ones are not', () => {
    const pv = (phase: string) => ({ metadata: { name: 'pv' }, status: { phase } }) as PersistentVolume;
    expect(volumeInUse(pv('Bound'))).toBe(true);
    expect(volumeInUse(pv('Available'))).toBe(false);
    expect(volumeInUse(pv('Released'))).toBe(false);
  });
});

describe('StorageObjectInUseProtection admission (TestAdmit)', () => {
  const attrs = { dryRun: false } as AdmissionAttributes;
  it('adds the finalizer on create, once, and leaves updates alone', async () => {
    const hook = addFinalizerOnCreate(PVC_PROTECTION_FINALIZER);
    const created = { metadata: { name: 'c' } } as PersistentVolumeClaim;
    await hook.mutate!(created, null, attrs);
    expect(created.metadata.finalizers).toEqual([PVC_PROTECTION_FINALIZER]);
    await hook.mutate!(created, null, attrs);
    expect(created.metadata.finalizers).toEqual([PVC_PROTECTION_FINALIZER]);
    const updated = { metadata: { name: 'c' } } as PersistentVolumeClaim;
    await hook.mutate!(updated, created, attrs);
    expect(updated.metadata.finalizers).toBeUndefined();
  });
});

/**
 * Rows ported from upstream pkg/controller/volume/persistentvolume binder_test.go
 * (TestSync: syncClaim sets 1-x unbound claims, 2-x claims naming a volume, 3-x bound claims,
 * syncVolume 4-x and 5-x, the WaitForFirstConsumer and external provisioning rows of
 * TestSyncBlockVolume / TestProvisionSync / TestDelayBinding) and provision_test.go (external).
 */
import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim } from '../../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../../resources/persistentvolumes/persistentvolumes.schema.js';
import type { StorageClass } from '../../../resources/storageclasses/storageclasses.schema.js';
import { FakeVolumeClient } from './fake-client.fixture.js';
import { MESSAGES, PvSync } from './sync.js';

const BOUND_BY = 'pv.kubernetes.io/bound-by-controller';
const COMPLETED = 'pv.kubernetes.io/bind-completed';

function volume(
  name: string,
  size: string,
  claim?: { name: string; uid?: string },
  phase = 'Available',
  extra: Record<string, unknown> = {},
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, uid: `${name}-uid`, resourceVersion: '1', annotations: {} },
    spec: {
      capacity: { storage: size },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Retain',
      ...(claim ? { claimRef: { name: claim.name, namespace: 'default', uid: claim.uid ?? '' } } : {}),
      ...extra,
    },
    status: { phase },
  } as PersistentVolume;
}

function claim(
  name: string,
  size: string,
  volumeName = '',
  annotations: Record<string, string> = {},
  cls?: string,
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default', uid: `${name}-uid`, resourceVersion: '1', annotations },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      ...(volumeName ? { volumeName } : {}),
      ...(cls !== undefined ? { storageClassName: cls } : {}),
    },
    status: { phase: 'Pending' },
  } as PersistentVolumeClaim;
}

const sc = (name: string, mode: string, provisioner = 'sim.ck.io/simulated', annotations = {}): StorageClass =>
  ({
    metadata: { name, annotations, creationTimestamp: '2026-01-01T00:00:00Z' },
    provisioner,
    volumeBindingMode: mode,
    reclaimPolicy: 'Delete',
  }) as StorageClass;

async function syncClaim(c: PersistentVolumeClaim, vols: PersistentVolume[], classes: StorageClass[] = []) {
  const client = new FakeVolumeClient(vols, [c], classes);
  await new PvSync(client).syncClaim(client.claims.get(`default/${c.metadata.name}`)!);
  return {
    client,
    claim: client.claims.get(`default/${c.metadata.name}`)!,
    vol: (n: string) => client.volumes.get(n)!,
  };
}

describe('syncClaim: unbound claims (1-x)', () => {
  it('1-1 binds to a matching unbound volume, both sides annotated and Bound', async () => {
    const { claim: c, vol } = await syncClaim(claim('claim1-1', '1Gi'), [volume('volume1-1', '1Gi')]);
    expect(c.spec?.volumeName).toBe('volume1-1');
    expect(c.metadata.annotations).toMatchObject({ [BOUND_BY]: 'yes', [COMPLETED]: 'yes' });
    expect(c.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    const v = vol('volume1-1');
    expect(v.spec?.claimRef).toMatchObject({
      kind: 'PersistentVolumeClaim',
      name: 'claim1-1',
      uid: 'claim1-1-uid',
      apiVersion: 'v1',
    });
    expect(v.metadata.annotations?.[BOUND_BY]).toBe('yes');
    expect(v.status?.phase).toBe('Bound');
  });

  it('1-2 no volume and no class: Pending and FailedBinding', async () => {
    const { claim: c, client } = await syncClaim(claim('claim1-2', '10Gi'), [volume('volume1-2', '1Gi')]);
    expect(c.status?.phase).toBe('Pending');
    expect(c.spec?.volumeName).toBeUndefined();
    expect(client.events).toEqual(['Normal FailedBinding']);
    expect(client.messages).toEqual([MESSAGES.noClass]);
  });

  it('1-3 a Pending claim without match stays Pending and access modes and capacity are reset', async () => {
    const c = claim('claim1-3', '10Gi');
    c.status = { phase: 'Pending', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } };
    const { claim: after } = await syncClaim(c, []);
    expect(after.status).toEqual({ phase: 'Pending' });
  });

  it('1-4 binds to a volume pre-bound to the claim, without bound-by-controller on the volume', async () => {
    const { claim: c, vol } = await syncClaim(claim('claim1-4', '1Gi'), [
      volume('volume1-4', '1Gi', { name: 'claim1-4' }, 'Pending'),
    ]);
    expect(c.spec?.volumeName).toBe('volume1-4');
    expect(vol('volume1-4').spec?.claimRef?.uid).toBe('claim1-4-uid');
    expect(vol('volume1-4').metadata.annotations?.[BOUND_BY]).toBeUndefined();
  });

  it('1-5 chooses the smallest volume that fits; 1-8 a larger one when only it fits', async () => {
    const vols = [volume('big', '10Gi'), volume('fit', '2Gi'), volume('small', '1Gi')];
    expect((await syncClaim(claim('c', '2Gi'), vols)).claim.spec?.volumeName).toBe('fit');
    expect((await syncClaim(claim('c', '3Gi'), vols)).claim.spec?.volumeName).toBe('big');
  });

  it('1-7 a volume of another class is not bound', async () => {
    const { claim: c } = await syncClaim(claim('c', '1Gi', '', {}, ''), [
      volume('gold', '1Gi', undefined, 'Available', { storageClassName: 'gold' }),
    ]);
    expect(c.spec?.volumeName).toBeUndefined();
  });
});

describe('syncClaim: claims naming a volume (2-x)', () => {
  it('2-1 the volume does not exist: Pending', async () => {
    const { claim: c, client } = await syncClaim(claim('claim2-1', '10Gi', 'volume2-1'), []);
    expect(c.status?.phase).toBe('Pending');
    expect(client.writes).toBe(0);
  });

  it('2-3 the named volume is free: bound, volume marked bound-by-controller, claim not', async () => {
    const { claim: c, vol } = await syncClaim(claim('claim2-3', '1Gi', 'volume2-3'), [volume('volume2-3', '1Gi')]);
    expect(c.status?.phase).toBe('Bound');
    expect(c.metadata.annotations?.[BOUND_BY]).toBeUndefined();
    expect(c.metadata.annotations?.[COMPLETED]).toBe('yes');
    expect(vol('volume2-3').metadata.annotations?.[BOUND_BY]).toBe('yes');
  });

  it('2-4 the named volume is bound to another claim: Pending', async () => {
    const { claim: c } = await syncClaim(claim('claim2-4', '1Gi', 'volume2-4'), [
      volume('volume2-4', '1Gi', { name: 'other', uid: 'x' }, 'Bound'),
    ]);
    expect(c.status?.phase).toBe('Pending');
  });

  it('2-5 the same with bound-by-controller on the claim is an error', async () => {
    await expect(
      syncClaim(claim('claim2-5', '1Gi', 'volume2-5', { [BOUND_BY]: 'yes' }), [
        volume('volume2-5', '1Gi', { name: 'other', uid: 'x' }, 'Bound'),
      ]),
    ).rejects.toThrow(
      'invalid binding of claim "default/claim2-5" to volume "volume2-5": volume already claimed by "default/other"',
    );
  });

  it('2-6 the named volume is too small: VolumeMismatch, Pending', async () => {
    const { claim: c, client } = await syncClaim(claim('claim2-6', '10Gi', 'volume2-6'), [volume('volume2-6', '1Gi')]);
    expect(c.status?.phase).toBe('Pending');
    expect(client.events).toEqual(['Warning VolumeMismatch']);
    expect(client.messages[0]).toBe('Cannot bind to requested volume "volume2-6": requested PV is too small');
  });
});

describe('syncClaim: bound claims (3-x)', () => {
  const done = { [COMPLETED]: 'yes' };
  it('3-1 lost reference to its volume: Lost, ClaimLost', async () => {
    const c = claim('claim3-1', '10Gi', '', done);
    c.status = { phase: 'Bound' };
    const { claim: after, client } = await syncClaim(c, []);
    expect(after.status?.phase).toBe('Lost');
    expect(client.events).toEqual(['Warning ClaimLost']);
    expect(client.messages).toEqual([MESSAGES.claimLostReference]);
  });
  it('3-2 its volume is gone: Lost', async () => {
    const { claim: after, client } = await syncClaim(claim('claim3-2', '10Gi', 'volume3-2', done), []);
    expect(after.status?.phase).toBe('Lost');
    expect(client.messages).toEqual([MESSAGES.claimLostVolume]);
  });
  it('3-3 its volume came unbound: bound again', async () => {
    const { claim: after, vol } = await syncClaim(claim('claim3-3', '10Gi', 'volume3-3', done), [
      volume('volume3-3', '10Gi', undefined, 'Pending'),
    ]);
    expect(after.status?.phase).toBe('Bound');
    expect(vol('volume3-3').spec?.claimRef?.name).toBe('claim3-3');
  });
  it('3-5 its volume is bound to another claim: Lost, ClaimMisbound', async () => {
    const { claim: after, client } = await syncClaim(claim('claim3-5', '10Gi', 'volume3-5', done), [
      volume('volume3-5', '10Gi', { name: 'claim3-5', uid: 'other' }, 'Bound'),
    ]);
    expect(after.status?.phase).toBe('Lost');
    expect(client.events).toEqual(['Warning ClaimMisbound']);
  });
});

describe('syncClaim: classes and provisioning', () => {
  it('WaitForFirstConsumer without a selected node: event, no binding, no provisioning', async () => {
    const { claim: c, client } = await syncClaim(
      claim('c', '1Gi', '', {}, 'wfc'),
      [volume('v', '1Gi', undefined, 'Available', { storageClassName: 'wfc' })],
      [sc('wfc', 'WaitForFirstConsumer')],
    );
    expect(c.spec?.volumeName).toBeUndefined();
    expect(client.events).toEqual(['Normal WaitForFirstConsumer']);
    expect(client.messages).toEqual([MESSAGES.waitForFirstConsumer]);
  });

  it('WaitForFirstConsumer with a selected node: annotated for the provisioner, ExternalProvisioning', async () => {
    const ann = { 'volume.kubernetes.io/selected-node': 'node-1' };
    const { claim: c, client } = await syncClaim(
      claim('c', '1Gi', '', ann, 'wfc'),
      [],
      [sc('wfc', 'WaitForFirstConsumer')],
    );
    expect(c.metadata.annotations).toMatchObject({
      'volume.kubernetes.io/storage-provisioner': 'sim.ck.io/simulated',
      'volume.beta.kubernetes.io/storage-provisioner': 'sim.ck.io/simulated',
    });
    expect(client.events).toEqual(['Normal ExternalProvisioning']);
    expect(client.messages[0]).toBe(MESSAGES.externalProvisioning('sim.ck.io/simulated'));
  });

  it('Immediate class: provisioned at once; an already annotated claim is not written again', async () => {
    const { client } = await syncClaim(claim('c', '1Gi', '', {}, 'fast'), [], [sc('fast', 'Immediate')]);
    expect(client.writes).toBe(1);
    const again = await syncClaim(client.claims.get('default/c')!, [], [sc('fast', 'Immediate')]);
    expect(again.client.writes).toBe(0);
    expect(again.client.events).toEqual(['Normal ExternalProvisioning']);
  });

  it('a class not found: ProvisioningFailed and an error', async () => {
    const client = new FakeVolumeClient([], [claim('c', '1Gi', '', {}, 'missing')]);
    await expect(new PvSync(client).syncClaim(client.claims.get('default/c')!)).rejects.toThrow(
      'storageclass.storage.k8s.io "missing" not found',
    );
    expect(client.events).toEqual(['Warning ProvisioningFailed']);
  });

  it('a claim without class gets the newest default class (retroactive default)', async () => {
    const older = sc('older', 'Immediate', 'x', { 'storageclass.kubernetes.io/is-default-class': 'true' });
    const newer = { ...sc('newer', 'Immediate', 'x', { 'storageclass.kubernetes.io/is-default-class': 'true' }) };
    newer.metadata = { ...newer.metadata, creationTimestamp: '2026-02-01T00:00:00Z' };
    const { claim: c } = await syncClaim(claim('c', '1Gi'), [], [older, newer]);
    expect(c.spec?.storageClassName).toBe('newer');
    const empty = await syncClaim(claim('c', '1Gi', '', {}, ''), [], [older]);
    expect(empty.claim.spec?.storageClassName).toBe('');
  });
});

async function syncVolume(v: PersistentVolume, claims: PersistentVolumeClaim[] = []) {
  const client = new FakeVolumeClient([v], claims);
  await new PvSync(client).syncVolume(client.volumes.get(v.metadata.name ?? '')!);
  return { client, vol: client.volumes.get(v.metadata.name ?? '')! };
}

describe('syncVolume (4-x)', () => {
  it('4-1 a new volume without claimRef becomes Available; 4-2 so does a pre-bound one without uid', async () => {
    expect((await syncVolume(volume('volume4-1', '1Gi', undefined, 'Pending'))).vol.status?.phase).toBe('Available');
    expect((await syncVolume(volume('volume4-2', '1Gi', { name: 'claim4-2' }, 'Pending'))).vol.status?.phase).toBe(
      'Available',
    );
  });
  it('4-3 its claim is gone, Retain: Released and kept', async () => {
    const { vol } = await syncVolume(volume('volume4-3', '1Gi', { name: 'gone', uid: 'gone-uid' }, 'Bound'));
    expect(vol.status?.phase).toBe('Released');
  });
  it('4-4 its claim was recreated with another uid: Released', async () => {
    const { vol } = await syncVolume(volume('volume4-4', '1Gi', { name: 'claim4-4', uid: 'old-uid' }, 'Bound'), [
      claim('claim4-4', '1Gi'),
    ]);
    expect(vol.status?.phase).toBe('Released');
  });
  it('4-5 Delete without a provisioner: Failed with VolumeFailedDelete', async () => {
    const v = volume('volume4-5', '1Gi', { name: 'gone', uid: 'gone-uid' }, 'Bound', {
      persistentVolumeReclaimPolicy: 'Delete',
    });
    const { vol, client } = await syncVolume(v);
    expect(vol.status?.phase).toBe('Failed');
    expect(client.events).toEqual(['Warning VolumeFailedDelete']);
  });
  it('4-6 Delete of a provisioned volume: Released, left to its provisioner', async () => {
    const v = volume('volume4-6', '1Gi', { name: 'gone', uid: 'gone-uid' }, 'Bound', {
      persistentVolumeReclaimPolicy: 'Delete',
    });
    v.metadata.annotations = { 'pv.kubernetes.io/provisioned-by': 'sim.ck.io/simulated' };
    const { vol, client } = await syncVolume(v);
    expect(vol.status?.phase).toBe('Released');
    expect(client.events).toEqual([]);
  });
  it('4-7 its claim is not bound yet: the claim is synced', async () => {
    const { client } = await syncVolume(
      volume('volume4-7', '1Gi', { name: 'claim4-7', uid: 'claim4-7-uid' }, 'Available'),
      [claim('claim4-7', '1Gi')],
    );
    expect(client.enqueued).toEqual(['default/claim4-7']);
  });
  it('4-8 its claim is bound to it: Bound', async () => {
    const { vol } = await syncVolume(
      volume('volume4-8', '1Gi', { name: 'claim4-8', uid: 'claim4-8-uid' }, 'Available'),
      [claim('claim4-8', '1Gi', 'volume4-8', { [COMPLETED]: 'yes' })],
    );
    expect(vol.status?.phase).toBe('Bound');
  });
  it('4-9 its claim is bound elsewhere and the controller bound it: unbound, Available', async () => {
    const v = volume('volume4-9', '1Gi', { name: 'claim4-9', uid: 'claim4-9-uid' }, 'Bound');
    v.metadata.annotations = { [BOUND_BY]: 'yes' };
    const { vol } = await syncVolume(v, [claim('claim4-9', '1Gi', 'other', { [COMPLETED]: 'yes' })]);
    expect(vol.spec?.claimRef).toBeUndefined();
    expect(vol.metadata.annotations?.[BOUND_BY]).toBeUndefined();
    expect(vol.status?.phase).toBe('Available');
  });
  it('4-10 its claim is bound elsewhere and the user bound it: left, the claim is synced', async () => {
    const { vol, client } = await syncVolume(
      volume('volume4-10', '1Gi', { name: 'claim4-10', uid: 'claim4-10-uid' }, 'Bound'),
      [claim('claim4-10', '1Gi', 'other', { [COMPLETED]: 'yes' })],
    );
    expect(vol.spec?.claimRef?.name).toBe('claim4-10');
    expect(client.enqueued).toEqual(['default/claim4-10']);
  });
});

/**
 * Ported from upstream pkg/controller/volume/persistentvolume/index_test.go (1.33):
 * TestMatchVolume, TestMatchingWithBoundVolumes, TestFindingVolumeWithDifferentAccessModes,
 * TestVolumeModeCheck / TestFilteringVolumeModes, TestFindingPreboundVolumes,
 * TestBestMatchDelayed (delayBinding) and TestFindMatchVolumeWithNode (node affinity).
 */
import { describe, expect, it } from 'vitest';
import type { Node } from '../../resources/nodes/nodes.schema.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { PersistentVolume } from '../../resources/persistentvolumes/persistentvolumes.schema.js';
import {
  checkAccessModes,
  findBestMatchForClaim,
  findMatchingVolume,
  isVolumeBoundToClaim,
  volumeSatisfyClaimError,
} from './volume-util.js';

type Mode = 'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';
const RWO: Mode = 'ReadWriteOnce';
const ROX: Mode = 'ReadOnlyMany';
const RWX: Mode = 'ReadWriteMany';

function pv(
  name: string,
  size: string,
  modes: Mode[],
  extra: Partial<NonNullable<PersistentVolume['spec']>> = {},
  labels?: Record<string, string>,
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, uid: name, labels },
    spec: { capacity: { storage: size }, accessModes: modes, ...extra },
    status: { phase: 'Available' },
  } as PersistentVolume;
}

function pvc(size: string, mod: (c: PersistentVolumeClaim) => void = () => {}): PersistentVolumeClaim {
  const c = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'claim01', namespace: 'myns', uid: 'claim01-uid' },
    spec: { accessModes: [ROX, RWO], resources: { requests: { storage: size } } },
  } as PersistentVolumeClaim;
  mod(c);
  return c;
}

/** Upstream createTestVolumes, the parts the scenarios below use. */
function testVolumes(): PersistentVolume[] {
  return [
    pv('gce-pd-10', '10G', [RWO, ROX]),
    pv('gce-pd-20', '20G', [RWO, ROX], { claimRef: { uid: 'def456' } }),
    pv('nfs-5', '5G', [RWO, ROX, RWX]),
    pv('gce-pd-1', '1G', [RWO, ROX], { claimRef: { uid: 'abc123' } }),
    pv('nfs-10', '10G', [RWO, ROX, RWX]),
    pv('gce-pd-5', '5G', [RWO, ROX]),
    pv('nfs-1', '1G', [RWO, ROX, RWX]),
    pv('gce-pd-2', '20000G', [RWO], {}, { 'should-exist': 'true' }),
    pv('gce-pd-silver1', '10000G', [RWO], { storageClassName: 'silver' }, { 'should-exist': 'true' }),
    pv('gce-pd-silver2', '1G', [RWO], { storageClassName: 'silver' }),
    pv('gce-pd-gold', '50G', [RWO], { storageClassName: 'gold' }),
    pv('block-1', '10G', [RWO, ROX], { volumeMode: 'Block' }),
  ];
}

describe('findBestMatchForClaim (TestMatchVolume)', () => {
  const rows: [string, string | undefined, PersistentVolumeClaim][] = [
    ['successful-match-gce-10', 'gce-pd-10', pvc('8G')],
    ['successful-match-nfs-5', 'nfs-5', pvc('5G', (c) => (c.spec!.accessModes = [ROX, RWO, RWX]))],
    ['successful-skip-1g-bound-volume', 'gce-pd-5', pvc('1G')],
    ['successful-no-match', undefined, pvc('999G')],
    [
      'successful-no-match-due-to-label',
      undefined,
      pvc('999G', (c) => (c.spec!.selector = { matchLabels: { 'should-not-exist': 'true' } })),
    ],
    [
      'successful-no-match-due-to-size-constraint-with-label-selector',
      undefined,
      pvc('20000G', (c) => (c.spec!.selector = { matchLabels: { 'should-exist': 'true' } })),
    ],
    [
      'successful-match-due-with-constraint-and-label-selector',
      'gce-pd-2',
      pvc('20000G', (c) => {
        c.spec!.selector = { matchLabels: { 'should-exist': 'true' } };
        c.spec!.accessModes = [RWO];
      }),
    ],
    [
      'successful-match-with-class',
      'gce-pd-silver1',
      pvc('1G', (c) => {
        c.spec!.storageClassName = 'silver';
        c.spec!.selector = { matchLabels: { 'should-exist': 'true' } };
        c.spec!.accessModes = [RWO];
      }),
    ],
    [
      'successful-match-with-class-and-labels',
      'gce-pd-silver2',
      pvc('1G', (c) => {
        c.spec!.storageClassName = 'silver';
        c.spec!.accessModes = [RWO];
      }),
    ],
    [
      'successful-match-with-beta-class-annotation',
      'gce-pd-gold',
      pvc('1G', (c) => {
        c.metadata.annotations = { 'volume.beta.kubernetes.io/storage-class': 'gold' };
        c.spec!.storageClassName = 'silver';
        c.spec!.accessModes = [RWO];
      }),
    ],
    ['successful-match-block', 'block-1', pvc('8G', (c) => (c.spec!.volumeMode = 'Block'))],
  ];
  for (const [name, want, claim] of rows)
    it(name, () => expect(findBestMatchForClaim(claim, testVolumes(), false)?.metadata.name).toBe(want));
});

describe('index_test', () => {
  it('TestMatchingWithBoundVolumes: a bound volume is skipped for its twin', () => {
    const vols = [pv('gce001', '1G', [RWO, ROX], { claimRef: { uid: 'abc123' } }), pv('gce002', '1G', [RWO, ROX])];
    expect(findBestMatchForClaim(pvc('1G'), vols, false)?.metadata.name).toBe('gce002');
  });

  it('TestFindingVolumeWithDifferentAccessModes: the fewest modes that cover the claim win', () => {
    const gce = pv('gce', '10G', [RWO, ROX]);
    const ebs = pv('ebs', '10G', [RWO]);
    const nfs = pv('nfs', '10G', [RWO, ROX, RWX]);
    const vols = [gce, ebs, nfs];
    const claim = pvc('1G', (c) => (c.spec!.accessModes = [RWO]));
    const best = () => findBestMatchForClaim(claim, vols, false)?.metadata.name;
    expect(best()).toBe('ebs');
    claim.spec!.accessModes = [RWO, ROX];
    expect(best()).toBe('gce');
    claim.spec!.accessModes = [RWX, RWO, ROX];
    expect(best()).toBe('nfs');
    claim.spec!.accessModes = [RWX];
    expect(best()).toBe('nfs');
    ebs.spec!.claimRef = {};
    claim.spec!.accessModes = [RWO];
    expect(best()).toBe('gce');
    gce.spec!.claimRef = {};
    expect(best()).toBe('nfs');
    gce.spec!.claimRef = undefined;
    claim.spec!.accessModes = [ROX];
    expect(best()).toBe('gce');
  });

  it('TestFilteringVolumeModes: Filesystem and Block never cross', () => {
    const vols = [pv('fs', '10G', [RWO]), pv('block', '10G', [RWO], { volumeMode: 'Block' })];
    const claim = (mode?: 'Block' | 'Filesystem') =>
      pvc('1G', (c) => ((c.spec!.accessModes = [RWO]), (c.spec!.volumeMode = mode)));
    expect(findBestMatchForClaim(claim(), vols, false)?.metadata.name).toBe('fs');
    expect(findBestMatchForClaim(claim('Filesystem'), vols, false)?.metadata.name).toBe('fs');
    expect(findBestMatchForClaim(claim('Block'), vols, false)?.metadata.name).toBe('block');
    expect(findBestMatchForClaim(claim('Block'), [vols[0]!], false)).toBeUndefined();
  });

  it('TestFindingPreboundVolumes: a volume pre-bound to the claim wins over a smaller one, even not Available', () => {
    const claim = pvc('1G', (c) => (c.spec!.accessModes = [RWO]));
    const small = pv('small', '1G', [RWO]);
    const pre = pv('pre', '8G', [RWO], { claimRef: { name: 'claim01', namespace: 'myns' } });
    pre.status = { phase: 'Pending' };
    expect(findBestMatchForClaim(claim, [small, pre], false)?.metadata.name).toBe('pre');
    const other = pv('other', '8G', [RWO], { claimRef: { name: 'claim01', namespace: 'myns', uid: 'someone-else' } });
    expect(findBestMatchForClaim(claim, [small, other], false)?.metadata.name).toBe('small');
  });

  it('TestBestMatchDelayed: with delayBinding only pre-bound volumes match', () => {
    const claim = pvc('1G', (c) => (c.spec!.accessModes = [RWO]));
    expect(findBestMatchForClaim(claim, [pv('free', '1G', [RWO])], true)).toBeUndefined();
    const pre = pv('pre', '1G', [RWO], { claimRef: { name: 'claim01', namespace: 'myns', uid: 'claim01-uid' } });
    expect(findBestMatchForClaim(claim, [pre], true)?.metadata.name).toBe('pre');
  });

  it('skips volumes being deleted and volumes not Available', () => {
    const claim = pvc('1G', (c) => (c.spec!.accessModes = [RWO]));
    const deleting = pv('deleting', '1G', [RWO]);
    deleting.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    const released = pv('released', '1G', [RWO]);
    released.status = { phase: 'Released' };
    expect(findBestMatchForClaim(claim, [deleting, released], false)).toBeUndefined();
  });
});

describe('FindMatchingVolume with a node (TestFindMatchVolumeWithNode)', () => {
  const node = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels } }) as Node;
  const affinity = (key: string, value: string) => ({
    required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In' as const, values: [value] }] }] },
  });
  const vols = [
    pv('local-1', '1G', [RWO], { nodeAffinity: affinity('key1', 'test1') }),
    pv('local-2', '5G', [RWO], { nodeAffinity: affinity('key1', 'test2') }),
    pv('local-3', '10G', [RWO, ROX], { nodeAffinity: affinity('key1', 'test1') }),
  ];
  const claim = pvc('1G', (c) => (c.spec!.accessModes = [RWO]));
  it('chooses the smallest volume the node can reach', () => {
    expect(findMatchingVolume(claim, vols, node('n2', { key1: 'test2' }), new Set(), true)?.metadata.name).toBe(
      'local-2',
    );
    expect(findMatchingVolume(claim, vols, node('n1', { key1: 'test1' }), new Set(), true)?.metadata.name).toBe(
      'local-1',
    );
  });
  it('excluded volumes are skipped, and no match on a node no volume reaches', () => {
    expect(
      findMatchingVolume(claim, vols, node('n1', { key1: 'test1' }), new Set(['local-1']), true)?.metadata.name,
    ).toBe('local-3');
    expect(findMatchingVolume(claim, vols, node('n3', { key1: 'test3' }), new Set(), true)).toBeUndefined();
  });
  it('a pre-bound volume the node cannot reach is no match at all', () => {
    const pre = pv('pre', '1G', [RWO], {
      nodeAffinity: affinity('key1', 'test2'),
      claimRef: { name: 'claim01', namespace: 'myns' },
    });
    expect(findMatchingVolume(claim, [pre, ...vols], node('n1', { key1: 'test1' }), new Set(), true)).toBeUndefined();
  });
  it('access modes are checked on the scheduler path', () => {
    const rox = pvc('1G', (c) => (c.spec!.accessModes = [ROX]));
    expect(findMatchingVolume(rox, vols, node('n1', { key1: 'test1' }), new Set(), true)?.metadata.name).toBe(
      'local-3',
    );
  });
});

describe('checkVolumeSatisfyClaim and IsVolumeBoundToClaim', () => {
  const claim = pvc('5G', (c) => ((c.spec!.accessModes = [RWO]), (c.spec!.storageClassName = 'gold')));
  it('answers upstream messages', () => {
    expect(volumeSatisfyClaimError(pv('a', '1G', [RWO], { storageClassName: 'gold' }), claim)).toBe(
      'requested PV is too small',
    );
    expect(volumeSatisfyClaimError(pv('a', '5G', [RWO]), claim)).toBe('storageClassName does not match');
    expect(
      volumeSatisfyClaimError(pv('a', '5G', [RWO], { storageClassName: 'gold', volumeMode: 'Block' }), claim),
    ).toBe('incompatible volumeMode');
    expect(volumeSatisfyClaimError(pv('a', '5G', [ROX], { storageClassName: 'gold' }), claim)).toBe(
      'incompatible accessMode',
    );
    expect(volumeSatisfyClaimError(pv('a', '5Gi', [RWO], { storageClassName: 'gold' }), claim)).toBeUndefined();
  });
  it('compares name, namespace and a set uid', () => {
    expect(isVolumeBoundToClaim(pv('a', '1G', [], { claimRef: { name: 'claim01', namespace: 'myns' } }), claim)).toBe(
      true,
    );
    expect(isVolumeBoundToClaim(pv('a', '1G', [], { claimRef: { name: 'claim01', namespace: 'other' } }), claim)).toBe(
      false,
    );
    expect(
      isVolumeBoundToClaim(pv('a', '1G', [], { claimRef: { name: 'claim01', namespace: 'myns', uid: 'x' } }), claim),
    ).toBe(false);
    expect(checkAccessModes(claim, pv('a', '1G', [ROX, RWO]))).toBe(true);
  });
});

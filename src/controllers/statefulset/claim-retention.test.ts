// Ports upstream pkg/controller/statefulset/stateful_set_utils_test.go
// TestGetPersistentVolumeClaimRetentionPolicy, TestIsClaimOwnerUpToDate,
// TestClaimOwnerUpToDateEdgeCases, TestUpdateClaimOwnerRefForSetAndPod,
// TestUpdateClaimControllerRef, TestHasOwnerRef, TestHasUnexpectedController (part).
import { describe, expect, it } from 'vitest';
import type { OwnerReference } from '../../api/object.js';
import type { PersistentVolumeClaim } from '../../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import {
  claimOwnerRefsFor,
  hasOwnerRef,
  hasUnexpectedController,
  isClaimOwnerUpToDate,
  retentionPolicy,
} from './claim-retention.js';

const pod = (name: string, uid: string): Pod => ({ metadata: { name, uid } }) as Pod;
const claim = (refs: OwnerReference[]): PersistentVolumeClaim => ({
  metadata: { name: 'target-claim', ownerReferences: refs },
});
const set = (name: string, uid: string, replicas: number, whenScaled: string, whenDeleted: string): StatefulSet => ({
  metadata: { name, uid },
  spec: { replicas, persistentVolumeClaimRetentionPolicy: { whenScaled, whenDeleted } },
});
const ref = (apiVersion: string, kind: string, name: string, uid?: string, controller?: boolean): OwnerReference =>
  ({
    apiVersion,
    kind,
    name,
    ...(uid === undefined ? {} : { uid }),
    ...(controller === undefined ? {} : { controller }),
  }) as OwnerReference;
const podRef = (p: Pod) => ref('v1', 'Pod', p.metadata.name!, p.metadata.uid!, true);
const setRef = (s: StatefulSet) => ref('apps/v1', 'StatefulSet', s.metadata.name!, s.metadata.uid!, true);

describe('claim retention (stateful_set_utils_test.go)', () => {
  it('TestGetPersistentVolumeClaimRetentionPolicy', () => {
    expect(retentionPolicy(set('s', 'u', 1, 'Retain', 'Retain'))).toEqual({
      whenScaled: 'Retain',
      whenDeleted: 'Retain',
    });
    expect(retentionPolicy(set('s', 'u', 1, 'Delete', 'Retain'))).toEqual({
      whenScaled: 'Delete',
      whenDeleted: 'Retain',
    });
    expect(retentionPolicy({ metadata: {}, spec: {} })).toEqual({ whenScaled: 'Retain', whenDeleted: 'Retain' });
  });

  describe('TestIsClaimOwnerUpToDate', () => {
    const cases = [
      ['retain', 'Retain', 'Retain', false, false, 0, 0],
      ['on SS delete', 'Retain', 'Delete', false, true, 0, 0],
      ['on scaledown only, condemned', 'Delete', 'Retain', true, false, 2, 2],
      ['on scaledown only, remains', 'Delete', 'Retain', false, false, 2, 1],
      ['on both, condemned', 'Delete', 'Delete', true, false, 2, 2],
      ['on both, remains', 'Delete', 'Delete', false, true, 2, 1],
    ] as const;
    for (const [name, scaled, deleted, needsPodRef, needsSetRef, replicas, ordinal] of cases)
      for (const others of [false, true])
        for (const withPod of [false, true])
          for (const withSet of [false, true])
            it(`${name} (pod ref ${withPod}, set ref ${withSet}, other refs ${others})`, () => {
              const p = pod(`pod-${ordinal}`, 'pod-123');
              const s = set('stateful-set', 'ss-456', replicas, scaled, deleted);
              const refs: OwnerReference[] = [];
              if (withPod) refs.push(podRef(p));
              if (withSet) refs.push(setRef(s));
              if (others) refs.push(ref('v1', 'Pod', 'rand1', 'rand1-uid'), ref('v1', 'Pod', 'rand2', 'rand2-uid'));
              const want = withPod === needsPodRef && withSet === needsSetRef;
              expect(isClaimOwnerUpToDate(claim(refs), s, p)).toBe(want);
            });
  });

  it.each([
    ['normal controller, pod', [ref('v1', 'Pod', 'pod-1', 'pod-123', true)], 'Delete', 'Delete', true],
    ['non-controller causes policy mismatch, pod', [ref('v1', 'Pod', 'pod-1', 'pod-123')], 'Delete', 'Delete', false],
    [
      'stale controller does not affect policy, pod',
      [ref('v1', 'Pod', 'pod-1', 'pod-stale', true)],
      'Delete',
      'Delete',
      true,
    ],
    [
      'unexpected controller causes policy mismatch, pod',
      [ref('v1', 'Pod', 'pod-1', 'pod-123', true), ref('v1', 'Pod', 'Random', 'random', true)],
      'Delete',
      'Delete',
      false,
    ],
    [
      'normal controller, set',
      [ref('apps/v1', 'StatefulSet', 'stateful-set', 'ss-456', true)],
      'Retain',
      'Delete',
      true,
    ],
    [
      'non-controller causes policy mismatch, set',
      [ref('appsv1', 'StatefulSet', 'stateful-set', 'ss-456')],
      'Retain',
      'Delete',
      false,
    ],
    [
      'stale controller ignored, set',
      [ref('apps/v1', 'StatefulSet', 'stateful-set', 'set-stale', true)],
      'Retain',
      'Delete',
      true,
    ],
    [
      'unexpected controller causes policy mismatch, set',
      [
        ref('apps/v1', 'StatefulSet', 'stateful-set', 'ss-456', true),
        ref('apps/v1', 'StatefulSet', 'Random', 'random', true),
      ],
      'Retain',
      'Delete',
      false,
    ],
  ] as const)('TestClaimOwnerUpToDateEdgeCases: %s', (_n, refs, scaled, deleted, want) => {
    const s = set('stateful-set', 'ss-456', 1, scaled, deleted);
    expect(isClaimOwnerUpToDate(claim([...refs]), s, pod('pod-1', 'pod-123'))).toBe(want);
  });

  describe('TestUpdateClaimOwnerRefForSetAndPod', () => {
    const cases = [
      ['retain', 'Retain', 'Retain', false, false, false, false],
      ['delete with set', 'Retain', 'Delete', false, false, true, false],
      ['delete with scaledown, not condemned', 'Delete', 'Retain', false, false, false, false],
      ['delete on scaledown, condemned', 'Delete', 'Retain', true, true, false, false],
      ['delete on both, not condemned', 'Delete', 'Delete', false, false, true, false],
      ['delete on both, condemned', 'Delete', 'Delete', true, true, false, false],
      ['unexpected controller', 'Delete', 'Delete', true, false, false, true],
    ] as const;
    for (const [name, scaled, deleted, condemned, needsPodRef, needsSetRef, unexpected] of cases)
      for (let v = 0; v < 8; v++)
        it(`${name} (variation ${v})`, () => {
          const s = set('ss', 'ss-123', 5, scaled, deleted);
          const p = pod(condemned ? 'pod-8' : 'pod-1', 'pod-456');
          const refs: OwnerReference[] = [];
          if (v & 1) refs.push(podRef(p));
          if (v & 2) refs.push(setRef(s));
          if (v & 3) refs.push(ref('custom/v1', 'random', 'random', 'abc'));
          if (unexpected) refs.push(ref('custom/v1', 'Unknown', 'unknown', 'xyz', true));
          const out = claimOwnerRefsFor(claim(refs), s, p);
          const isController = (uid: string) => out.find((r) => r.uid === uid)?.controller === true;
          expect(isController('pod-456')).toBe(needsPodRef);
          expect(isController('ss-123')).toBe(needsSetRef);
          if (v & 3) expect(out.some((r) => r.uid === 'abc')).toBe(true);
        });
  });

  it.each([
    [
      'set correctly',
      [ref('apps/v1', 'StatefulSet', 'sts', '123', true), ref('someone', 'Else', 'foo')],
      ['apps/v1/StatefulSet/sts', 'someone/Else/foo'],
    ],
    ['missing controller', [ref('apps/v1', 'StatefulSet', 'sts', '123')], ['apps/v1/StatefulSet/sts']],
    [
      'matching name but missing',
      [ref('someone', 'else', 'sts', '456')],
      ['someone/else/sts', 'apps/v1/StatefulSet/sts'],
    ],
    ['not present', [], ['apps/v1/StatefulSet/sts']],
    ['controller, but no UID', [ref('apps/v1', 'StatefulSet', 'sts', undefined, true)], []],
    ['neither controller nor UID', [ref('apps/v1', 'StatefulSet', 'sts')], []],
  ] as const)('TestUpdateClaimControllerRef: %s', (_n, original, want) => {
    const s = set('sts', '123', 1, 'Delete', 'Delete');
    const out = claimOwnerRefsFor(claim([...original]), s, pod('pod-0', '456'));
    expect(out.map((r) => `${r.apiVersion}/${r.kind}/${r.name}`).sort()).toEqual([...want].sort());
    const own = out.find((r) => r.uid === '123');
    if (own) expect(own.controller).toBe(true);
  });

  it('TestHasOwnerRef', () => {
    const target = claim([
      { uid: '123', controller: true },
      { uid: '456', controller: false },
      { uid: '789' },
    ] as OwnerReference[]);
    for (const [uid, want] of [
      ['123', true],
      ['456', true],
      ['789', true],
      ['012', false],
    ] as const)
      expect(hasOwnerRef(target, pod('x', uid))).toBe(want);
  });

  it.each([
    ['custom controller', [ref('chipmunks/v1', 'CustomController', 'simon', 'other-uid', true)], true],
    ['custom non-controller', [ref('chipmunks/v1', 'CustomController', 'simon', 'other-uid', false)], false],
    ['custom unspecified controller', [ref('chipmunks/v1', 'CustomController', 'simon', 'other-uid')], false],
    ['other pod controller', [ref('v1', 'Pod', 'simon', 'other-uid', true)], true],
    ['other set controller', [ref('apps/v1', 'Set', 'simon', 'other-uid', true)], true],
    ['own set controller', [ref('apps/v1', 'StatefulSet', 'set', 'set-uid', true)], false],
    ['own set controller, stale uid', [ref('apps/v1', 'StatefulSet', 'set', 'stale-uid', true)], true],
    ['own pod controller', [ref('v1', 'Pod', 'pod', 'pod-uid', true)], false],
  ] as const)('TestHasUnexpectedController: %s', (_n, refs, want) => {
    const s = set('set', 'set-uid', 1, 'Delete', 'Delete');
    expect(hasUnexpectedController(claim([...refs]), s, pod('pod', 'pod-uid'))).toBe(want);
  });
});

// Ports upstream deployment/util/deployment_util_test.go: TestNewRSNewReplicas,
// TestResolveFenceposts, TestMaxUnavailable, TestIsSaturated, TestGetProportion-style checks
// of getReplicaSetFraction.
import { describe, expect, it } from 'vitest';
import { newDeployment, newReplicaSet } from '../../../test/helpers/deployment-fixtures.js';
import { isSaturated, maxSurge, maxUnavailable, newRSNewReplicas, proportion, resolveFenceposts } from './replicas.js';
import { setReplicasAnnotations } from './revisions.js';
import type { Deployment } from './types.js';

describe('NewRSNewReplicas (upstream TestNewRSNewReplicas)', () => {
  it.each([
    ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
    ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
    ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
  ])('%s', (_n, type, depReplicas, newRSReplicas, surge, expected) => {
    const d = newDeployment('nginx', depReplicas);
    d.spec!.strategy = { type, rollingUpdate: { maxUnavailable: 1, maxSurge: surge } };
    const newRS = newReplicaSet(d, 'new', newRSReplicas);
    const rs5 = newReplicaSet(d, 'rs5', 5);
    expect(newRSNewReplicas(d, [rs5], newRS)).toBe(expected);
  });
  it('refuses an unknown strategy type', () => {
    const d = newDeployment('nginx', 1);
    d.spec!.strategy = { type: 'Canary' };
    expect(() => newRSNewReplicas(d, [], newReplicaSet(d, 'n', 0))).toThrow("deployment type Canary isn't supported");
  });
});

describe('ResolveFenceposts (upstream TestResolveFenceposts)', () => {
  it.each([
    ['0%', '0%', 0, 0, 1, false],
    ['39%', '39%', 10, 4, 3, false],
    ['oops', '39%', 10, 0, 0, true],
    ['55%', 'urg', 10, 0, 0, true],
    [undefined, '39%', 10, 0, 3, false],
    ['39%', undefined, 10, 4, 0, false],
    [undefined, undefined, 10, 0, 1, false],
  ])('surge %s unavailable %s of %d', (surge, unavailable, desired, expSurge, expUnavailable, error) => {
    if (error) {
      expect(() => resolveFenceposts(surge, unavailable, desired)).toThrow('string is not a percentage');
      return;
    }
    expect(resolveFenceposts(surge, unavailable, desired)).toEqual({ surge: expSurge, unavailable: expUnavailable });
  });
});

describe('MaxUnavailable (upstream TestMaxUnavailable)', () => {
  const deployment = (replicas: number, unavailable: number | string): Deployment => {
    const d = newDeployment('foo', replicas);
    d.spec!.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: unavailable } };
    return d;
  };
  const recreate = newDeployment('foo', 1);
  recreate.spec!.strategy = { type: 'Recreate' };
  it.each([
    ['maxUnavailable less than replicas', deployment(10, 5), 5],
    ['maxUnavailable equal replicas', deployment(10, 10), 10],
    ['maxUnavailable greater than replicas', deployment(5, 10), 5],
    ['maxUnavailable with replicas is 0', deployment(0, 10), 0],
    ['maxUnavailable with Recreate deployment strategy', recreate, 0],
    ['maxUnavailable less than replicas with percents', deployment(10, '50%'), 5],
    ['maxUnavailable equal replicas with percents', deployment(10, '100%'), 10],
    ['maxUnavailable greater than replicas with percents', deployment(5, '100%'), 5],
  ])('%s', (_n, d, expected) => {
    expect(maxUnavailable(d)).toBe(expected);
  });
  it('rounds maxSurge up and maxUnavailable down (25% of 10: 3 and 2)', () => {
    const d = newDeployment('foo', 10, { maxSurge: '25%', maxUnavailable: '25%' });
    expect(maxSurge(d)).toBe(3);
    expect(maxUnavailable(d)).toBe(2);
  });
});

describe('IsSaturated (upstream TestIsSaturated)', () => {
  const d = newDeployment('foo', 3);
  const rsWith = (spec: number, desired: string | undefined, available: number) => {
    const r = newReplicaSet(d, 'foo-1', spec);
    if (desired !== undefined) r.metadata.annotations = { 'deployment.kubernetes.io/desired-replicas': desired };
    r.status = { availableReplicas: available };
    return r;
  };
  it.each([
    ['invalid desired replicas annotation', rsWith(3, 'meh', 3), false],
    ['too many replicas', rsWith(5, '5', 5), false],
    ['too few replicas', rsWith(2, '3', 3), false],
    ['too few available replicas', rsWith(3, '3', 2), false],
    ['no annotation', rsWith(3, undefined, 3), false],
    ['saturated', rsWith(3, '3', 3), true],
  ])('%s', (_n, r, expected) => {
    expect(isSaturated(d, r)).toBe(expected);
  });
});

describe('GetProportion', () => {
  it('scales in proportion to the max-replicas annotation, bounded by what is left to add', () => {
    const d = newDeployment('foo', 10);
    const r = newReplicaSet(d, 'a', 3);
    setReplicasAnnotations(r, 5, 5);
    expect(proportion(r, d, 5, 0)).toBe(3); // 3 * 10/5 = 6: +3
    expect(proportion(r, d, 5, 4)).toBe(1); // only 1 left
    expect(proportion(r, d, 0, 0)).toBe(0);
  });
  it('scaling to zero removes the whole ReplicaSet', () => {
    const d = newDeployment('foo', 0);
    const r = newReplicaSet(d, 'a', 4);
    expect(proportion(r, d, -6, 0)).toBe(-4);
  });
});

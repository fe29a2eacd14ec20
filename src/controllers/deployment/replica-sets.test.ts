// Ports upstream deployment/util/deployment_util_test.go: TestGetReplicaCountForReplicaSets,
// TestFindNewReplicaSet, TestFindOldReplicaSets, TestEqualIgnoreHash; controller_utils_test.go
// ReplicaSetsBySizeOlder/Newer order; FindActiveOrLatest.
import { describe, expect, it } from 'vitest';
import { newDeployment, newReplicaSet } from '../../../test/helpers/deployment-fixtures.js';
import {
  actualReplicaCount,
  availableReplicaCount,
  bySizeNewer,
  bySizeOlder,
  equalIgnoreHash,
  findActiveOrLatest,
  findNewReplicaSet,
  findOldReplicaSets,
  replicaCount,
} from './replica-sets.js';
import type { ReplicaSet } from './types.js';

const withStatus = (r: ReplicaSet, replicas: number, available = 0) => ({
  ...r,
  status: { replicas, availableReplicas: available },
});

describe('replica counts (upstream TestGetReplicaCountForReplicaSets)', () => {
  const d = newDeployment('foo', 1, { selector: { foo: 'bar' } });
  const rs1 = withStatus(newReplicaSet(d, 'rs1', 1), 2, 1);
  const rs2 = withStatus(newReplicaSet(d, 'rs2', 2), 3, 2);
  it.each([
    ['1:2 Replicas', [rs1], 1, 2, 1],
    ['3:5 Replicas', [rs1, rs2], 3, 5, 3],
    ['nil is 0', [null], 0, 0, 0],
  ] as const)('%s', (_n, sets, spec, status, available) => {
    expect(replicaCount(sets)).toBe(spec);
    expect(actualReplicaCount(sets)).toBe(status);
    expect(availableReplicaCount(sets)).toBe(available);
  });
});

describe('FindNewReplicaSet / FindOldReplicaSets', () => {
  const d = newDeployment('nginx', 1, { selector: { name: 'nginx' } });
  const now = '2016-01-01T00:00:00Z';
  const later = '2016-01-01T00:00:10Z';
  const newRS = { ...newReplicaSet(d, 'new', 1) };
  newRS.metadata.creationTimestamp = later;
  newRS.spec!.template!.metadata!.labels = { ...newRS.spec!.template!.metadata!.labels, 'pod-template-hash': 'abc' };
  const dup = { ...newReplicaSet(d, 'dup', 1) };
  dup.metadata.creationTimestamp = now;
  const old = newReplicaSet(d, 'old', 1);
  old.metadata.creationTimestamp = now;
  old.spec!.template!.spec!.containers![0]!.image = 'nginx:old';

  it('Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value', () => {
    expect(findNewReplicaSet(d, [newRS, old])?.metadata.name).toBe('new');
  });
  it('Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template', () => {
    expect(findNewReplicaSet(d, [newRS, old, dup])?.metadata.name).toBe('dup');
  });
  it('Get nil new ReplicaSet', () => {
    expect(findNewReplicaSet(d, [old])).toBeUndefined();
  });
  it('Get old ReplicaSets; the one with 0 replicas is in all but not required', () => {
    const zero = { ...old, metadata: { ...old.metadata, name: 'zero', uid: 'z' }, spec: { ...old.spec, replicas: 0 } };
    const { required, all } = findOldReplicaSets(d, [newRS, old, zero]);
    expect(required.map((r) => r.metadata.name)).toEqual(['old']);
    expect(all.map((r) => r.metadata.name)).toEqual(['old', 'zero']);
  });
  it('Get empty old ReplicaSets', () => {
    expect(findOldReplicaSets(d, [newRS])).toEqual({ required: [], all: [] });
  });
});

describe('EqualIgnoreHash (upstream TestEqualIgnoreHash)', () => {
  const tmpl = (labels?: Record<string, string>, image = 'foo') => ({
    metadata: labels ? { labels } : {},
    spec: { containers: [{ name: 'c', image }] },
  });
  it.each([
    [
      'Same spec, same labels',
      tmpl({ 'pod-template-hash': 'x', something: 'else' }),
      tmpl({ 'pod-template-hash': 'x', something: 'else' }),
      true,
    ],
    [
      'Same spec, only pod-template-hash label value is different',
      tmpl({ 'pod-template-hash': 'x', something: 'else' }),
      tmpl({ 'pod-template-hash': 'y', something: 'else' }),
      true,
    ],
    [
      "Same spec, the former doesn't have pod-template-hash label",
      tmpl({ something: 'else' }),
      tmpl({ 'pod-template-hash': 'y', something: 'else' }),
      true,
    ],
    [
      "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
      tmpl({ something: 'else' }),
      tmpl({ 'pod-template-hash': 'y' }),
      false,
    ],
    [
      'Same spec, the label is different, and the pod-template-hash label value is the same',
      tmpl({ 'pod-template-hash': 'x' }),
      tmpl({ 'pod-template-hash': 'x', something: 'else' }),
      false,
    ],
    [
      'Different spec, same labels',
      tmpl({ 'pod-template-hash': 'x' }, 'a'),
      tmpl({ 'pod-template-hash': 'x' }, 'b'),
      false,
    ],
    ['Same spec, one has no labels, one only the hash label', tmpl(), tmpl({ 'pod-template-hash': 'x' }), true],
    [
      // kubectl rollout undo writes the ReplicaSet's template back with `creationTimestamp: null`.
      'Same spec, one with a null creationTimestamp and an empty list (typed Go sees no difference)',
      { ...tmpl({ a: 'b' }), metadata: { ...tmpl({ a: 'b' }).metadata, creationTimestamp: null, finalizers: [] } },
      tmpl({ a: 'b', 'pod-template-hash': 'x' }),
      true,
    ],
  ])('%s', (_n, a, b, equal) => {
    expect(equalIgnoreHash(a, b)).toBe(equal);
    expect(equalIgnoreHash(b, a)).toBe(equal);
  });
});

describe('orders and FindActiveOrLatest', () => {
  const d = newDeployment('foo', 1);
  const at = (name: string, replicas: number, t: string) => {
    const r = newReplicaSet(d, name, replicas);
    r.metadata.creationTimestamp = t;
    return r;
  };
  const a = at('a', 2, '2016-05-20T00:00:00Z');
  const b = at('b', 2, '2016-05-20T01:00:00Z');
  const c = at('c', 5, '2016-05-20T02:00:00Z');
  it('BySizeOlder puts larger first, then older; BySizeNewer larger first, then newer', () => {
    expect([a, b, c].sort(bySizeOlder).map((r) => r.metadata.name)).toEqual(['c', 'a', 'b']);
    expect([a, b, c].sort(bySizeNewer).map((r) => r.metadata.name)).toEqual(['c', 'b', 'a']);
  });
  it('FindActiveOrLatest: the single active one, the newest when none is active, none when several are', () => {
    const zero = (r: ReplicaSet) => ({ ...r, spec: { ...r.spec, replicas: 0 } });
    expect(findActiveOrLatest(zero(c), [a, zero(b)])?.metadata.name).toBe('a');
    expect(findActiveOrLatest(undefined, [zero(a), zero(b)])?.metadata.name).toBe('b');
    expect(findActiveOrLatest(zero(c), [zero(a)])?.metadata.name).toBe('c');
    expect(findActiveOrLatest(c, [a])).toBeUndefined();
    expect(findActiveOrLatest(undefined, [])).toBeUndefined();
  });
});

// Ports upstream deployment/util/deployment_util_test.go: TestAnnotationUtils
// (SetNewReplicaSetAnnotations raising revisions, revision-history), TestReplicasAnnotationsNeedUpdate,
// MaxRevision / LastRevision, SetDeploymentAnnotationsTo.
import { describe, expect, it } from 'vitest';
import { newDeployment, newReplicaSet } from '../../../test/helpers/deployment-fixtures.js';
import {
  lastRevision,
  maxRevision,
  replicasAnnotationsNeedUpdate,
  setDeploymentAnnotationsTo,
  setNewReplicaSetAnnotations,
} from './revisions.js';

const REV = 'deployment.kubernetes.io/revision';
const HISTORY = 'deployment.kubernetes.io/revision-history';

describe('SetNewReplicaSetAnnotations (upstream TestAnnotationUtils)', () => {
  const d = newDeployment('nginx', 1);
  d.metadata.annotations = { 'kubernetes.io/change-cause': 'edit', [REV]: '999' };
  const r = newReplicaSet(d, 'nginx-1', 1);

  it('raises the revision from 11 through 20, keeping the last two in revision-history within 5 characters', () => {
    for (let i = 10; i < 20; i++) {
      const next = String(i + 1);
      setNewReplicaSetAnnotations(d, r, next, true, { desired: 1, max: 1 }, 5);
      if (i >= 12) expect(r.metadata.annotations?.[HISTORY]).toBe(`${i - 1},${i}`);
      expect(r.metadata.annotations?.[REV]).toBe(next);
    }
    // copied annotations, never the Deployment's own revision
    expect(r.metadata.annotations?.['kubernetes.io/change-cause']).toBe('edit');
  });
  it('keeps a higher revision than the one offered', () => {
    expect(setNewReplicaSetAnnotations(d, r, '3', true, { desired: 1, max: 1 })).toBe(false);
    expect(r.metadata.annotations?.[REV]).toBe('20');
  });
  it('records replaced revisions in revision-history and keeps it within the length limit', () => {
    const x = newReplicaSet(d, 'x', 1);
    x.metadata.annotations = { [REV]: '1' };
    setNewReplicaSetAnnotations(d, x, '3', true, { desired: 1, max: 1 });
    expect(x.metadata.annotations[HISTORY]).toBe('1');
    setNewReplicaSetAnnotations(d, x, '5', true, { desired: 1, max: 1 });
    expect(x.metadata.annotations[HISTORY]).toBe('1,3');
    setNewReplicaSetAnnotations(d, x, '7', true, { desired: 1, max: 1 }, 4);
    expect(x.metadata.annotations[HISTORY]).toBe('3,5');
  });
  it('gives a new ReplicaSet the replicas annotations', () => {
    const y = newReplicaSet(d, 'y', 1);
    setNewReplicaSetAnnotations(d, y, '1', false, { desired: 10, max: 13 });
    expect(y.metadata.annotations).toMatchObject({
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    });
  });
  it('leaves a ReplicaSet whose revision is not a number alone', () => {
    const z = newReplicaSet(d, 'z', 1);
    z.metadata.annotations = { [REV]: 'abc' };
    expect(setNewReplicaSetAnnotations(d, z, '4', true, { desired: 1, max: 1 })).toBe(false);
  });
});

describe('ReplicasAnnotationsNeedUpdate (upstream TestReplicasAnnotationsNeedUpdate)', () => {
  const d = newDeployment('hello', 10);
  const withA = (a?: Record<string, string>) => {
    const r = newReplicaSet(d, 'r', 10);
    r.metadata.annotations = a;
    return r;
  };
  it.each([
    ['test Annotations nil', withA(undefined), true],
    [
      'test desiredReplicas update',
      withA({ 'deployment.kubernetes.io/desired-replicas': '8', 'deployment.kubernetes.io/max-replicas': '16' }),
      true,
    ],
    [
      'test maxReplicas update',
      withA({ 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '15' }),
      true,
    ],
    [
      "test needn't update",
      withA({ 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '16' }),
      false,
    ],
  ])('%s', (_n, r, expected) => {
    expect(replicasAnnotationsNeedUpdate(r, 10, 16)).toBe(expected);
  });
});

describe('MaxRevision and LastRevision', () => {
  const d = newDeployment('foo', 1);
  const at = (rev?: string) => {
    const r = newReplicaSet(d, `r${rev}`, 1);
    if (rev !== undefined) r.metadata.annotations = { [REV]: rev };
    return r;
  };
  it('finds the highest and the second highest revision, ignoring unparsable ones', () => {
    const list = [at('3'), at('1'), at('bad'), at('7'), at(undefined)];
    expect(maxRevision(list)).toBe(7);
    expect(lastRevision(list)).toBe(3);
    expect(lastRevision([at('2')])).toBe(0);
  });
});

describe('SetDeploymentAnnotationsTo', () => {
  it('takes the ReplicaSet annotations but keeps the Deployment revision and skips kubectl last-applied', () => {
    const d = newDeployment('foo', 1);
    d.metadata.annotations = { [REV]: '4', 'kubernetes.io/change-cause': 'edit', other: 'x' };
    const r = newReplicaSet(d, 'r', 1);
    r.metadata.annotations = {
      [REV]: '1',
      'kubernetes.io/change-cause': 'create',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    };
    setDeploymentAnnotationsTo(d, r);
    expect(d.metadata.annotations).toEqual({ [REV]: '4', 'kubernetes.io/change-cause': 'create' });
  });
});

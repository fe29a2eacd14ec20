// Ports upstream pkg/controller/history/controller_history_test.go (TestSortControllerRevisions,
// TestFindEqualRevisions, the hash and name properties of TestCreateControllerRevision) and
// pkg/controller/statefulset/stateful_set_utils_test.go TestCreateApplyRevision,
// TestRollingUpdateApplyRevision, TestNewRevision (annotations and labels).
import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import { newStatefulSet } from './harness.fixture.js';
import {
  applyRevision,
  controllerRevisionName,
  equalRevision,
  findEqualRevisions,
  fnv1,
  hashControllerRevision,
  newRevision,
  nextRevision,
  REVISION_HASH_LABEL,
  sortRevisions,
} from './revisions.js';

const rev = (name: string, revision: number, sec = 0): ControllerRevision => ({
  metadata: { name, creationTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, sec)).toISOString() },
  revision,
  data: { name },
});

describe('ControllerRevision history', () => {
  it('fnv1 is FNV-1 32 (Go hash/fnv New32), not FNV-1a', () => {
    expect(fnv1(Buffer.from(''))).toBe(0x811c9dc5);
    expect(fnv1(Buffer.from('a'))).toBe(0x050c5d7e);
    expect(fnv1(Buffer.from('foobar'))).toBe(0x31f0b262);
  });

  it('hashes the data: stable, data-sensitive, and changed by the collision count', () => {
    const set = newStatefulSet(3);
    const a = newRevision(set, 1, 0);
    expect(hashControllerRevision(a, 0)).toBe(hashControllerRevision(newRevision(set, 7, 0), 0));
    expect(hashControllerRevision(a, 0)).not.toBe(hashControllerRevision(a, 1));
    const other = structuredClone(set);
    other.spec!.template!.spec!.containers[0].image = 'foo';
    expect(hashControllerRevision(newRevision(other, 1, 0), 0)).not.toBe(hashControllerRevision(a, 0));
    expect(hashControllerRevision(a, 0)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });

  it('names a revision <set>-<hash>, the prefix cut to 223 characters', () => {
    expect(controllerRevisionName('web', 'abc')).toBe('web-abc');
    expect(controllerRevisionName('x'.repeat(300), 'abc')).toBe(`${'x'.repeat(223)}-abc`);
  });

  it('TestNewRevision: labels, hash label, owner, annotations, name', () => {
    const set = newStatefulSet(3);
    set.metadata.annotations = { note: 'kept' };
    const r = newRevision(set, 4, 0);
    const hash = r.metadata.labels![REVISION_HASH_LABEL];
    expect(r.metadata.name).toBe(`foo-${hash}`);
    expect(r.metadata.labels).toEqual({ foo: 'bar', [REVISION_HASH_LABEL]: hash });
    expect(r.metadata.annotations).toEqual({ note: 'kept' });
    expect(r.revision).toBe(4);
    expect(r.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'StatefulSet',
      name: 'foo',
      uid: 'test',
      controller: true,
    });
    expect(r.data).toMatchObject({ spec: { template: { $patch: 'replace' } } });
  });

  it('TestCreateApplyRevision: applying a revision restores its template only', () => {
    const set = newStatefulSet(1);
    const r = newRevision(set, 1, 0);
    const changed = structuredClone(set);
    changed.spec!.template!.spec!.containers[0].image = 'foo';
    changed.spec!.replicas = 7;
    const restored = applyRevision(changed, r);
    expect(restored.spec?.template).toEqual(set.spec?.template);
    expect(restored.spec?.replicas).toBe(7);
    expect(equalRevision(newRevision(restored, 2, 0), r)).toBe(true);
    expect(changed.spec?.template?.spec?.containers[0].image).toBe('foo'); // the input is left alone
  });

  it('TestSortControllerRevisions: by revision, then creation time, then name', () => {
    const sorted = sortRevisions([rev('c', 2), rev('b', 1, 5), rev('a', 1, 5), rev('d', 1, 1)]);
    expect(sorted.map((r) => r.metadata.name)).toEqual(['d', 'a', 'b', 'c']);
    expect(nextRevision(sorted)).toBe(3);
    expect(nextRevision([])).toBe(1);
  });

  it('TestFindEqualRevisions: by data', () => {
    const set = newStatefulSet(1);
    const other = structuredClone(set);
    other.spec!.template!.spec!.containers[0].image = 'foo';
    const r1 = newRevision(set, 1, 0);
    const r2 = newRevision(other, 2, 0);
    const r3 = newRevision(set, 3, 0);
    expect(findEqualRevisions([r1, r2, r3], newRevision(set, 9, 0))).toEqual([r1, r3]);
    expect(findEqualRevisions([r1, r3], r2)).toEqual([]);
    expect(equalRevision(undefined, undefined)).toBe(true);
    expect(equalRevision(r1, undefined)).toBe(false);
  });
});

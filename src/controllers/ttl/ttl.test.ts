/**
 * Upstream 1.33 pkg/controller/ttl/ttl_controller_test.go, ported: TestPatchNode (the patch
 * written), TestUpdateNodeIfNeeded (whether a patch is written, and which), TestDesiredTTL (the
 * table's steps as nodes come and go).
 */
import { describe, expect, it } from 'vitest';
import { needsTtlUpdate, TTL_ANNOTATION, ttlPatch, TtlSizer } from './ttl.js';

const patch = (ttl: number) => ({ metadata: { annotations: { [TTL_ANNOTATION]: String(ttl) } } });

describe('TestPatchNode', () => {
  const cases: [Record<string, string> | undefined, number, object][] = [
    [undefined, 0, patch(0)],
    [undefined, 10, patch(10)],
    [undefined, 10, patch(10)],
    [{}, 10, patch(10)],
    [{ [TTL_ANNOTATION]: '0' }, 10, patch(10)],
    [{ [TTL_ANNOTATION]: '0', a: 'b' }, 10, patch(10)],
    [{ [TTL_ANNOTATION]: '10', a: 'b' }, 10, {}],
  ];
  it.each(cases)('annotations %j, ttl %d', (annotations, ttl, want) =>
    expect(ttlPatch(annotations, ttl)).toEqual(want),
  );
});

describe('TestUpdateNodeIfNeeded', () => {
  const cases: [Record<string, string> | undefined, number, object | undefined][] = [
    [undefined, 0, patch(0)],
    [undefined, 15, patch(15)],
    [undefined, 30, patch(30)],
    [{ [TTL_ANNOTATION]: '0' }, 60, patch(60)],
    [{ [TTL_ANNOTATION]: '60' }, 60, undefined],
    [{ [TTL_ANNOTATION]: '60' }, 30, patch(30)],
  ];
  it.each(cases)('annotations %j, desired %d', (annotations, desired, want) => {
    const needed = needsTtlUpdate(annotations, desired);
    expect(needed ? ttlPatch(annotations, desired) : undefined).toEqual(want);
  });
});

describe('TestDesiredTTL', () => {
  const cases: ['add' | 'delete', number, number, number, number][] = [
    ['add', 0, 0, 0, 0],
    ['add', 99, 0, 0, 0],
    ['add', 100, 0, 0, 15],
    ['delete', 101, 15, 1, 15],
    ['delete', 91, 15, 1, 15],
    ['add', 91, 15, 1, 15],
    ['delete', 90, 15, 1, 0],
  ];
  it.each(cases)('%s a node at count %d (ttl %d, step %d) -> %d', (op, count, ttl, step, want) => {
    const sizer = new TtlSizer(count, step, ttl);
    if (op === 'add') sizer.addNode();
    else sizer.deleteNode();
    expect(sizer.desiredTtlSeconds).toBe(want);
  });

  it('a non-integer annotation is rewritten', () => {
    expect(needsTtlUpdate({ [TTL_ANNOTATION]: 'x' }, 0)).toBe(true);
  });
});

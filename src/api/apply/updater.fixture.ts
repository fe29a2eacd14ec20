/**
 * Test fixture after structured-merge-diff `internal/fixture` (State, Apply, Update, TestCase):
 * run a sequence of applies and updates through the Updater with one API version, then compare
 * the live object and each manager's set.
 */
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { PatchMeta } from '../core/patch-meta.js';
import { FieldSet } from './field-set.js';
import { keyElement, makePath, pathToString, valueElement, type Path } from './path.js';
import { mergeConfiguration, updateManagers, type ManagerSets } from './updater.js';
import type { Json } from './value.js';

export type Op =
  { apply: string; by: string; force?: boolean; conflicts?: [string, Path][] } | { update: string; by: string };

export interface Case {
  meta: PatchMeta;
  ops: Op[];
  object: string;
  managed: Record<string, Path[]>;
}

export const P = makePath;
export const K = (name: string) => keyElement({ name });
export const V = valueElement;
export const y = (s: string) => (parse(s) ?? null) as Json;

export function run(c: Case): { live: Json; managers: ManagerSets } {
  let live: Json = null;
  let managers: ManagerSets = new Map();
  c.ops.forEach((op, i) => {
    if ('update' in op) {
      const next = y(op.update);
      managers = updateManagers(live, next, 'v1', managers, op.by, c.meta);
      live = next;
      return;
    }
    const res = mergeConfiguration(live, y(op.apply), 'v1', managers, op.by, op.force ?? false, c.meta);
    if ('conflicts' in res) {
      expect(op.conflicts, `op ${i} conflicts`).toBeDefined();
      expect(res.conflicts.map((x) => [x.manager, pathToString(x.path)])).toEqual(
        op.conflicts!.map(([m, p]) => [m, pathToString(p)]),
      );
      return;
    }
    expect(op.conflicts, `op ${i} should conflict`).toBeUndefined();
    managers = res.managers;
    live = res.object;
  });
  return { live, managers };
}

export function check(c: Case) {
  const { live, managers } = run(c);
  expect(live).toEqual(y(c.object));
  const got = Object.fromEntries([...managers].map(([m, vs]) => [m, [...vs.set.paths()].map(pathToString).sort()]));
  const want = Object.fromEntries(
    Object.entries(c.managed).map(([m, ps]) => [m, [...FieldSet.of(...ps).paths()].map(pathToString).sort()]),
  );
  expect(got).toEqual(want);
}

export const list: PatchMeta = { fields: { list: { merge: { key: 'name' } } } };
export const set: PatchMeta = { fields: { list: { merge: {} } } };
export const listOfLists: PatchMeta = {
  fields: { listOfLists: { merge: { key: 'name' }, items: { fields: { value: { merge: {} } } } } },
};
export const leaf: PatchMeta = {};
export const atomicMapMeta: PatchMeta = { fields: { atomicMap: { mapType: 'atomic' } } };
const recursive: { items?: PatchMeta } = {};
recursive.items = recursive;
export const nested: PatchMeta = { fields: { mapOfMapsRecursive: recursive, struct: {} } };

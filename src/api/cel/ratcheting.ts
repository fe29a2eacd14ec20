/**
 * Ratcheting and old-value correlation of CEL rules on update, as upstream 1.33 does it
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go ratchetingOptions,
 * k8s.io/apiserver pkg/cel/common CorrelatedObject): object fields correlate by name, list items
 * only in `x-kubernetes-list-type: map` lists by key; errors of a node equal to its old value (or,
 * when it does not correlate, of the nearest correlated ancestor equal to its old value) become
 * warnings. `apiVersion` and `kind` at the root do not ratchet.
 */
import { deepEqual, listMapKeyOf } from '../crd-schema/values.js';

/** The current node's (value, old value) pair, and the nearest correlated ancestor's. */
export interface Correlation {
  current?: { value: unknown; old: unknown; equal?: boolean };
  parent?: Correlation['current'];
}

/** Whether `x` is a JSON object. */
export const isObject = (x: unknown): x is Record<string, unknown> =>
  x !== null && typeof x === 'object' && !Array.isArray(x);
/** Whether the pair's value equals its old value (cached, upstream CachedDeepEqual). */
export const equalOf = (c: Correlation['current']): boolean => {
  if (!c) return false;
  c.equal ??= deepEqual(c.value, c.old);
  return c.equal;
};

/** Whether errors at this node become warnings (upstream shouldRatchetError). */
export function shouldRatchet(c: Correlation): boolean {
  return c.current ? equalOf(c.current) : equalOf(c.parent);
}

/** The correlation of field or map key `k` (upstream ratchetingOptions.key). */
export function keyCorr(c: Correlation, k: string): Correlation {
  if (!c.current) return c;
  if (!c.parent && (k === 'apiVersion' || k === 'kind')) return {};
  const { value, old } = c.current;
  const next = isObject(value) && isObject(old) && k in old ? { value: value[k], old: old[k] } : undefined;
  return { current: next, parent: c.current };
}

/** The correlation of list item `i`: only map lists correlate, by key (upstream ratchetingOptions.index). */
export function indexCorr(c: Correlation, i: number, keys: string[] | undefined): Correlation {
  if (!c.current) return c;
  const { value, old } = c.current;
  let next: Correlation['current'];
  if (keys && Array.isArray(value) && Array.isArray(old)) {
    const k = listMapKeyOf(value[i], keys);
    const match = old.find((o) => listMapKeyOf(o, keys) === k);
    if (match !== undefined) next = { value: value[i], old: match };
  }
  return { current: next, parent: c.current };
}

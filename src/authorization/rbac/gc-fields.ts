/**
 * Whether an update changes nothing but what the garbage collector changes (upstream
 * pkg/registry/rbac/helpers.go IsOnlyMutatingGCFields): the new object with the old one's
 * ownerReferences, finalizers and selfLink (and the bookkeeping the server itself writes on
 * every update: managedFields, resourceVersion) is semantically equal to the old object, where
 * an empty list or map equals an absent one (upstream equality.Semantic).
 */
import { isRecord } from '../../api/json.js';
import type { ApiObject } from '../../api/object.js';

const GC_AND_BOOKKEEPING = ['ownerReferences', 'finalizers', 'selfLink', 'managedFields', 'resourceVersion'];

/** True when `obj` differs from `old` only in ownerReferences and finalizers. */
export function isOnlyMutatingGcFields(obj: ApiObject, old: ApiObject): boolean {
  return semanticEqual(withoutGcFields(obj), withoutGcFields(old));
}

/** The object without GC fields and bookkeeping, and without apiVersion and kind (upstream compares typed objects, whose TypeMeta is not data). */
function withoutGcFields(obj: ApiObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = { ...obj.metadata };
  for (const f of GC_AND_BOOKKEEPING) delete metadata[f];
  const { apiVersion: _v, kind: _k, ...rest } = obj;
  return { ...rest, metadata };
}

/** Empty lists, empty maps, null and undefined all stand for "absent". */
const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);

/** Deep equality of JSON values with upstream's Semantic rule for empty and absent. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const x = a;
    const y = b;
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const k of keys) if (!semanticEqual(x[k], y[k])) return false;
    return true;
  }
  return a === b;
}

/**
 * What a pod update may change (upstream 1.10 ValidatePodUpdate): only container and init
 * container images, activeDeadlineSeconds, and additions to tolerations.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../errors/api-error.js';

type Spec = Record<string, any>;

const FORBIDDEN =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds` or `spec.tolerations` (only additions to existing tolerations)';

/** Problems of changing `old`'s spec into `obj`'s. */
export function validatePodUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const next = structuredClone((obj.spec ?? {}) as Spec);
  const prev = (old.spec ?? {}) as Spec;
  // Carry the mutable parts over from the old spec, then anything left that differs is forbidden.
  for (const key of ['containers', 'initContainers'] as const) {
    if (Array.isArray(next[key]) && Array.isArray(prev[key]) && next[key].length === prev[key].length) {
      next[key] = next[key].map((c: Spec, i: number) => ({ ...c, image: prev[key][i]?.image }));
    }
  }
  next.activeDeadlineSeconds = prev.activeDeadlineSeconds;
  const oldTolerations = (prev.tolerations ?? []) as unknown[];
  const newTolerations = (next.tolerations ?? []) as unknown[];
  if (oldTolerations.every((t) => newTolerations.some((n) => isDeepStrictEqual(n, t)))) next.tolerations = prev.tolerations;
  if (next.activeDeadlineSeconds === undefined) delete next.activeDeadlineSeconds;
  if (next.tolerations === undefined) delete next.tolerations;
  if (isDeepStrictEqual(next, prev)) return [];
  return [{ reason: 'FieldValueForbidden', field: 'spec', message: FORBIDDEN }];
}

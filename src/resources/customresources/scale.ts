/**
 * The `scale` subresource of a custom resource (upstream apiextensions-apiserver
 * pkg/registry/customresource ScaleREST): an autoscaling/v1 Scale whose spec.replicas is read
 * from and written to the object at `specReplicasPath`, status.replicas read at
 * `statusReplicasPath` and status.selector at `labelSelectorPath` (when given and a string).
 * A missing spec path reads as 0; writes go through the main strategy, so the generation moves
 * as for any spec change.
 */
import type { ApiObject } from '../../api/object.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { autoscalingScaleSchema, validateScaleRequest } from '../apps-common/scale.js';
import { mergeMetaForSubresource } from '../define.js';

/** The three paths of `subresources.scale` (`.spec.replicas`, ...). */
export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string | null;
}

/** `.spec.replicas` as keys. Paths are validated on the CRD (simple dotted paths). */
function keysOf(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function read(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const k of keysOf(path)) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** `obj` with `value` at `path`, copying only the objects on the way. */
function write(obj: Record<string, unknown>, keys: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = keys;
  if (head === undefined) return obj;
  const child = obj[head];
  const next = rest.length
    ? write(
        child && typeof child === 'object' && !Array.isArray(child) ? { ...(child as Record<string, unknown>) } : {},
        rest,
        value,
      )
    : value;
  return { ...obj, [head]: next };
}

/** The `scale` subresource for `paths`. */
export function customResourceScale(paths: ScalePaths): SubresourceDefinition {
  return {
    name: 'scale',
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    schema: autoscalingScaleSchema,
    verbs: ['get', 'patch', 'update'],
    useMainStrategy: true,
    validate: validateScaleRequest,
    present(obj: ApiObject): ApiObject {
      const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
      const spec = read(obj, paths.specReplicasPath);
      const status = read(obj, paths.statusReplicasPath);
      const selector = paths.labelSelectorPath ? read(obj, paths.labelSelectorPath) : undefined;
      const scaleStatus: Record<string, unknown> = { replicas: typeof status === 'number' ? status : 0 };
      if (typeof selector === 'string' && selector) scaleStatus.selector = selector;
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
        spec: { replicas: typeof spec === 'number' ? spec : 0 },
        status: scaleStatus,
      };
    },
    merge(requested: ApiObject, old: ApiObject): ApiObject {
      const replicas = (requested.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
      const updated = write(old, keysOf(paths.specReplicasPath), replicas) as ApiObject;
      return { ...updated, metadata: mergeMetaForSubresource(requested, old) };
    },
  };
}

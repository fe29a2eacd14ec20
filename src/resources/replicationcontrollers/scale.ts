/**
 * The `scale` subresource of replication controllers: an autoscaling/v1 Scale view
 * (upstream pkg/registry/core/replicationcontroller/storage ScaleREST). Writes change only
 * spec.replicas; status.selector is the controller's selector in label-selector syntax.
 */
import type { ApiObject } from '../../api/object.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import { mergeMetaForSubresource } from '../define.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, obj, reqInt, str } from '../../api/core/schema-kit.js';

type RcLike = { spec?: { replicas?: number; selector?: Record<string, string> }; status?: { replicas?: number } };
type ScaleLike = { spec?: { replicas?: unknown } };

/** `a=b,c=d` with keys sorted, as labels.SelectorFromSet(...).String(). */
function selectorString(selector: Record<string, string> = {}): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

function toScale(obj: ApiObject): ApiObject {
  const rc = obj as ApiObject & RcLike;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: rc.spec?.replicas ?? 0 },
    status: { replicas: rc.status?.replicas ?? 0, selector: selectorString(rc.spec?.selector) },
  };
}

function validate(scale: ApiObject): FieldError[] {
  const replicas = (scale as ApiObject & ScaleLike).spec?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    return [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be an integer` }];
  }
  if (replicas < 0) return [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${replicas}: must be greater than or equal to 0` }];
  return [];
}

/** autoscaling/v1 Scale. */
const scaleSchema = kindSchema({
  spec: obj({ replicas: int.describe('Desired number of instances of the scaled object.') }).describe('Desired scale.'),
  status: obj({
    replicas: reqInt.describe('Actual number of observed instances.'),
    selector: str.describe('Label query over the pods counted in replicas, in label-selector syntax.'),
  }).describe('Current scale, written by the system. Read-only.'),
});

export const scaleSubresource: SubresourceDefinition = {
  name: 'scale',
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  schema: scaleSchema,
  verbs: ['get', 'patch', 'update'],
  present: toScale,
  validate,
  useMainStrategy: true,
  merge: (requested, old) => {
    const rc = old as ApiObject & RcLike;
    const replicas = (requested as ApiObject & ScaleLike).spec?.replicas as number;
    return { ...old, metadata: mergeMetaForSubresource(requested, old), spec: { ...rc.spec, replicas } };
  },
};

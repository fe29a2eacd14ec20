/**
 * The `scale` subresource of replication controllers: an autoscaling/v1 Scale view
 * (upstream pkg/registry/core/replicationcontroller/storage ScaleREST). Writes change only
 * spec.replicas; status.selector is the controller's selector in label-selector syntax.
 */
import type { ApiObject } from '../../api/object.js';
import { recordOf } from '../../api/json.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import { mergeMetaForSubresource } from '../define.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, obj, reqInt, str } from '../../api/core/schema-kit.js';
import type { ReplicationController } from './replicationcontrollers.schema.js';

/** `a=b,c=d` with keys sorted, as labels.SelectorFromSet(...).String(). */
function selectorString(selector: Readonly<Record<string, string>>): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k]}`)
    .join(',');
}

function toScale(rc: ReplicationController): ApiObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = rc.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: rc.spec?.replicas ?? 0 },
    // A stored controller has a selector (its validation requires one).
    status: { replicas: rc.status?.replicas ?? 0, selector: selectorString(rc.spec?.selector ?? {}) },
  };
}

/** The replicas a Scale view asks for (checked by {@link validate} to be an integer). */
const requestedReplicas = (scale: ApiObject): unknown => recordOf(scale.spec).replicas;

function validate(scale: ApiObject): FieldError[] {
  const replicas = requestedReplicas(scale);
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    return [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${JSON.stringify(replicas ?? null)}: must be an integer`,
      },
    ];
  }
  if (replicas < 0)
    return [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${replicas}: must be greater than or equal to 0`,
      },
    ];
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

export const scaleSubresource: SubresourceDefinition<ReplicationController> = {
  name: 'scale',
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  schema: scaleSchema,
  verbs: ['get', 'patch', 'update'],
  present: toScale,
  validate,
  useMainStrategy: true,
  merge: (requested, old) => {
    const replicas = requestedReplicas(requested);
    return {
      ...old,
      metadata: mergeMetaForSubresource(requested, old),
      spec: { ...old.spec, replicas: typeof replicas === 'number' ? replicas : null },
    };
  },
};

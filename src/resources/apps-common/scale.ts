/**
 * The `scale` subresource of the replicated workloads (upstream pkg/registry/apps/deployment,
 * replicaset and statefulset storage ScaleREST). apps/v1 answers an autoscaling/v1 Scale whose
 * `status.selector` is the workload's selector in label-selector syntax; apps/v1beta1,
 * apps/v1beta2 and extensions/v1beta1 answer their own group's Scale, which carries that string
 * as `status.targetSelector` and, when the selector is made of equalities only, the same as a
 * map in `status.selector` (upstream's Convert_autoscaling_ScaleStatus_To_<version>_ScaleStatus).
 * Writes change only `spec.replicas` (autoscaling ValidateScale: at least 0), through the main
 * strategy, so generation moves as for any spec change.
 */
import type { ApiObject } from '../../api/object.js';
import { recordOf } from '../../api/json.js';
import { kindSchema } from '../../api/meta-schema.js';
import { int, obj, reqInt, str, strMap } from '../../api/core/schema-kit.js';
import type { ProtoMessages } from '../../api/protobuf/messages.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import type { SubresourceDefinition } from '../../registry/types.js';
import { mergeMetaForSubresource } from '../define.js';
import { asSelector, selectorString, type SelectorObject } from './label-selector.js';

/** What a workload's Scale is made of. */
export interface ScaleSource {
  readonly metadata: ApiObject['metadata'];
  readonly spec?: { readonly replicas?: number | null; readonly selector?: SelectorObject | null } | null;
  readonly status?: { readonly replicas?: number | null } | null;
}

/** The Scale versions: upstream's autoscaling/v1, and the three older groups' own Scale kinds. */
export type ScaleVersion = 'autoscaling/v1' | 'apps/v1beta1' | 'apps/v1beta2' | 'extensions/v1beta1';

const specSchema = obj({
  replicas: int.describe('desired number of instances for the scaled object.'),
}).describe('defines the behavior of the scale.');

/** autoscaling/v1 Scale. */
export const autoscalingScaleSchema = kindSchema({
  spec: specSchema,
  status: obj({
    replicas: reqInt.describe('actual number of observed instances of the scaled object.'),
    selector: str.describe(
      'label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax.',
    ),
  }).describe('current status of the scale. Read-only.'),
});

/** apps/v1beta1, apps/v1beta2 and extensions/v1beta1 Scale. */
const legacySchema = kindSchema({
  spec: specSchema,
  status: obj({
    replicas: reqInt.describe('actual number of observed instances of the scaled object.'),
    selector: strMap.describe('label query over pods that should match the replicas count.'),
    targetSelector: str.describe(
      'label selector for pods that should match the replicas count, in the query-param syntax. If the target type only supports map-based selectors, both this field and the map-based selector field are populated.',
    ),
  }).describe('current status of the scale. Read-only.'),
});

/** The protobuf messages of the Scale of `version` (k8s.io/api autoscaling/v1, apps/v1beta1, apps/v1beta2, extensions/v1beta1). */
export function scaleMessages(version: ScaleVersion): ProtoMessages {
  return version === 'autoscaling/v1'
    ? {
        // As replicationcontrollers.protobuf.ts defines them (one definition per package).
        'autoscaling/v1': {
          Scale: 'metadata=1:ObjectMeta spec=2:ScaleSpec status=3:ScaleStatus',
          ScaleSpec: 'replicas=1:int32!',
          ScaleStatus: 'replicas=1:int32! selector=2',
        },
      }
    : {
        [version]: {
          Scale: 'metadata=1:ObjectMeta spec=2:ScaleSpec status=3:ScaleStatus',
          ScaleSpec: 'replicas=1:int32',
          ScaleStatus: 'replicas=1:int32! selector=2:map<string> targetSelector=3',
        },
      };
}

/** The status of a legacy Scale: the selector string, and its equalities as a map when it has nothing else. */
function legacyStatus(replicas: number, selector: SelectorObject | null | undefined): Record<string, unknown> {
  const reqs = asSelector(selector);
  const target = selectorString(reqs);
  const status: Record<string, unknown> = { replicas };
  if (reqs !== 'nothing' && reqs.length && reqs.every((r) => r.operator === '='))
    status.selector = Object.fromEntries(reqs.map((r) => [r.key, r.values[0]]));
  if (target) status.targetSelector = target;
  return status;
}

/** The status of an autoscaling/v1 Scale (an empty selector string is left out, as Go's omitempty). */
function autoscalingStatus(replicas: number, selector: SelectorObject | null | undefined): Record<string, unknown> {
  const text = selectorString(asSelector(selector));
  return text ? { replicas, selector: text } : { replicas };
}

/** The replicas a Scale view asks for: Go's zero value when absent. */
const requestedReplicas = (scale: ApiObject): unknown => recordOf(scale.spec).replicas ?? 0;

/** autoscaling ValidateScale's replicas rule (and a type check Go's decoder would make). */
export function validateScaleRequest(scale: ApiObject): FieldError[] {
  const replicas = requestedReplicas(scale);
  if (typeof replicas !== 'number' || !Number.isInteger(replicas))
    return [
      {
        reason: 'FieldValueInvalid',
        field: 'spec.replicas',
        message: `Invalid value: ${JSON.stringify(replicas)}: must be an integer`,
      },
    ];
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

/** A workload's own label selector (`spec.selector` of the apps kinds). */
const specSelector = (workload: ScaleSource): SelectorObject | null | undefined => workload.spec?.selector;

/** What any replicated object's Scale is made of, its selector aside. */
type Scalable = ApiObject & { readonly spec?: { readonly replicas?: number | null } | null } & Pick<
    ScaleSource,
    'status'
  >;

/** The `scale` subresource of an apps workload served at a version whose Scale is `version`. */
export function workloadScale<T extends ApiObject & ScaleSource>(version: ScaleVersion): SubresourceDefinition<T> {
  return scaleOf<T>(version, specSelector);
}

/**
 * The `scale` subresource of a replicated object whose selector `selectorOf` gives as a
 * LabelSelector (a ReplicationController's map selector is its `matchLabels`, as upstream's
 * labels.SelectorFromSet), served at a version whose Scale is `version`.
 */
export function scaleOf<T extends Scalable>(
  version: ScaleVersion,
  selectorOf: (obj: T) => SelectorObject | null | undefined,
): SubresourceDefinition<T> {
  return {
    name: 'scale',
    kind: 'Scale',
    apiVersion: version,
    schema: version === 'autoscaling/v1' ? autoscalingScaleSchema : legacySchema,
    verbs: ['get', 'patch', 'update'],
    useMainStrategy: true,
    validate: validateScaleRequest,
    present(workload: T): ApiObject {
      const { name, namespace, uid, resourceVersion, creationTimestamp } = workload.metadata;
      const replicas = workload.status?.replicas ?? 0;
      const selector = selectorOf(workload);
      return {
        kind: 'Scale',
        apiVersion: version,
        metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
        spec: { replicas: workload.spec?.replicas ?? 0 },
        status: version === 'autoscaling/v1' ? autoscalingStatus(replicas, selector) : legacyStatus(replicas, selector),
      };
    },
    merge: (requested, old) => ({
      ...old,
      metadata: mergeMetaForSubresource(requested, old),
      spec: { ...old.spec, replicas: requestedReplicas(requested) },
    }),
  };
}

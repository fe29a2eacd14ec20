/**
 * The HorizontalPodAutoscaler strategy (Kubernetes 1.33 pkg/registry/autoscaling/
 * horizontalpodautoscaler/strategy.go and autoscaling/v2 defaults.go): minReplicas 1, the 80%
 * CPU metric when none is given, behavior filled in from upstream's scale-up and scale-down
 * rules, `tolerance` dropped (HPAConfigurableTolerance is off in 1.33) unless the old object
 * had one, status cleared on create and kept on update. Generation counts spec changes (as
 * upstream's HPAGeneration does since; 1.33 left metadata.generation unset).
 */
import type { Strategy } from '../../registry/types.js';
import { semanticEqual } from '../jobs/go-values.js';
import type { Hpa, HpaSpec } from './hpa.schema.js';
import { validateHpa, validateHpaStatus, validateHpaUpdate } from './hpa.validation.js';

/** DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

type Rules = NonNullable<NonNullable<HpaSpec['behavior']>['scaleUp']>;

const scaleUpRules = (): Rules => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});
const scaleDownRules = (): Rules => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** copyHPAScalingRules: the set fields of `from` over the defaults. */
function fill(from: Rules | null | undefined, defaults: Rules): Rules {
  if (!from) return defaults;
  const out = { ...defaults };
  if (from.selectPolicy != null) out.selectPolicy = from.selectPolicy;
  if (from.stabilizationWindowSeconds != null) out.stabilizationWindowSeconds = from.stabilizationWindowSeconds;
  if (from.policies != null) out.policies = from.policies;
  if (from.tolerance != null) out.tolerance = from.tolerance;
  return out;
}

/** The default metric: average CPU utilization of 80%. */
export const defaultCpuMetric = () => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
});

/** SetDefaults_HorizontalPodAutoscaler of autoscaling/v2 (with SetDefaults_HorizontalPodAutoscalerBehavior). */
export function defaultHpaV2(obj: Hpa): void {
  const spec = (obj.spec ??= {});
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length) spec.metrics = [defaultCpuMetric()];
  if (spec.behavior) {
    spec.behavior.scaleUp = fill(spec.behavior.scaleUp, scaleUpRules());
    spec.behavior.scaleDown = fill(spec.behavior.scaleDown, scaleDownRules());
  }
}

const hasTolerance = (obj: Hpa | undefined) =>
  [obj?.spec?.behavior?.scaleUp, obj?.spec?.behavior?.scaleDown].some((r) => r?.tolerance != null);

/** dropDisabledFields: tolerance only where the old object already had one. */
function dropTolerance(obj: Hpa, old?: Hpa): void {
  if (hasTolerance(old)) return;
  for (const rules of [obj.spec?.behavior?.scaleUp, obj.spec?.behavior?.scaleDown]) if (rules) delete rules.tolerance;
}

export const hpaStrategy: Strategy<Hpa> = {
  defaults: defaultHpaV2,
  prepareForCreate(obj) {
    obj.status = {};
    obj.metadata.generation = 1;
    dropTolerance(obj);
  },
  prepareForUpdate(obj, old) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
    dropTolerance(obj, old);
    const generation = old.metadata.generation ?? 0;
    obj.metadata.generation = semanticEqual(obj.spec, old.spec) ? generation : generation + 1;
  },
  validate: validateHpa,
  // A `/status` write (the spec is the stored one) runs the status strategy's rules.
  validateUpdate: (obj, old) =>
    semanticEqual(obj.status, old.status) ? validateHpaUpdate(obj, old) : validateHpaStatus(obj),
};

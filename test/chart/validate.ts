/**
 * Validation of rendered objects against upstream's OpenAPI schemas with kubernetes-models.
 * ServiceMonitor (a Prometheus operator CRD, not in kubernetes-models) is checked for the fields
 * the operator requires.
 */
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { Rendered } from './render.js';

const MODELS: Record<string, new (o: any) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Pod': Pod,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

/** Throws (naming the object) when `object` is not valid for its kind, or its kind is unknown. */
export function validate(object: Rendered): void {
  const id = `${object.apiVersion}/${object.kind}`;
  if (id === 'monitoring.coreos.com/v1/ServiceMonitor') {
    const spec = object.spec;
    if (!spec?.selector?.matchLabels || !Array.isArray(spec.endpoints) || spec.endpoints.some((e: any) => !e.port))
      throw new Error(`invalid ServiceMonitor ${object.metadata.name}`);
    return;
  }
  const Model = MODELS[id];
  if (!Model) throw new Error(`no schema for ${id}`);
  try {
    new Model(object).validate();
  } catch (err) {
    throw new Error(`${object.kind}/${object.metadata.name}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Pods, Object and External metrics (upstream 1.33 horizontal.go computeStatusForPodsMetric,
 * computeStatusForObjectMetric, computeStatusForExternalMetric with the replica calculator's
 * GetMetricReplicas, GetObjectMetricReplicas and GetExternalMetricReplicas). This server serves
 * neither the custom nor the external metrics API, so each fails as upstream's clients do when
 * they are absent, with upstream's wrapping, condition reason and event.
 */
import { MetricError } from './metric-error.js';
import type { MetricSpec } from './types.js';

/** The custom metrics client's discovery failure (k8s.io/metrics custom_metrics). */
const NO_CUSTOM_METRICS_API = 'no custom metrics API (custom.metrics.k8s.io) registered';

/** A LabelSelector as Go's `%+v` prints a pointer to one (nil when unset). */
function goSelector(sel: MetricSelector): string {
  if (!sel) return '<nil>';
  const labels = Object.entries(sel.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${v},`)
    .join('');
  const exprs = (sel.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

type MetricSelector = NonNullable<NonNullable<MetricSpec['pods']>['metric']>['selector'];

/** Throws the MetricError of a Pods, Object or External metric in `namespace` (always: no API serves them). */
export function customMetricFailure(spec: MetricSpec, namespace: string): never {
  switch (spec.type) {
    case 'Pods': {
      const name = spec.pods?.metric?.name ?? '';
      const cause = `unable to get metric ${name}: unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS_API}`;
      throw new MetricError(`failed to get pods metric value: ${cause}`, 'FailedGetPodsMetric', cause);
    }
    case 'Object': {
      const obj = spec.object;
      const name = obj?.metric?.name ?? '';
      const target = obj?.target;
      if (
        !(target?.type === 'Value' && target.value != null) &&
        !(target?.type === 'AverageValue' && target.averageValue != null)
      ) {
        const cause = 'invalid object metric source: neither a value target nor an average value target was set';
        throw new MetricError(`failed to get object metric value: ${cause}`, 'FailedGetObjectMetric', cause);
      }
      const ref = obj?.describedObject;
      const fetch = `unable to fetch metrics from custom metrics API: ${NO_CUSTOM_METRICS_API}`;
      const cause = `unable to get metric ${name}: ${ref?.kind ?? ''} on ${namespace} ${ref?.name ?? ''}/${fetch}`;
      const outer = target.type === 'Value' ? cause : `failed to get ${name} object metric: ${cause}`;
      throw new MetricError(`failed to get object metric value: ${outer}`, 'FailedGetObjectMetric', cause);
    }
    case 'External': {
      const ext = spec.external;
      const name = ext?.metric?.name ?? '';
      const target = ext?.target;
      if (target?.averageValue == null && target?.value == null) {
        const cause = 'invalid external metric source: neither a value target nor an average value target was set';
        throw new MetricError(
          `failed to get ${name} external metric value: ${cause}`,
          'FailedGetExternalMetric',
          cause,
        );
      }
      const fetch = `unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${name}.external.metrics.k8s.io)`;
      const cause = `unable to get external metric ${namespace}/${name}/${goSelector(ext?.metric?.selector)}: ${fetch}`;
      const middle =
        target.averageValue != null
          ? `failed to get ${name} external metric: ${cause}`
          : `failed to get external metric ${name}: ${cause}`;
      throw new MetricError(`failed to get ${name} external metric value: ${middle}`, 'FailedGetExternalMetric', cause);
    }
    default: {
      const cause = `unknown metric source type ${JSON.stringify(spec.type ?? '')}`;
      throw new MetricError(cause, 'InvalidMetricSourceType', cause, true);
    }
  }
}

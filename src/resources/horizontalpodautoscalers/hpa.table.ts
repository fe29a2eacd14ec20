/**
 * `kubectl get hpa` columns as Kubernetes 1.33 prints them (printHorizontalPodAutoscaler,
 * formatHPAMetrics): NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, from the
 * autoscaling/v2 form (a version served over it prints its objects converted, as upstream
 * prints the internal version).
 */
import { AGE_COLUMN, NAME_COLUMN, age, column, type TablePrinter } from '../../api/table.js';
import type { ApiObject } from '../../api/object.js';
import { canonicalQuantity } from '../../api/quantity.js';
import type { VersionConversion } from '../../registry/types.js';
import type { Hpa, MetricSpecV2, MetricStatusV2 } from './hpa.schema.js';

const MAX_SHOWN = 2;
type Q = string | number | null | undefined;
/** Quantity.String(): canonical; a missing one prints as 0. */
const text = (v: Q) => (v === undefined || v === null ? '0' : canonicalQuantity(v));

/** One metric's `current/target`. */
function formatMetric(spec: MetricSpecV2, status: MetricStatusV2 | undefined): string {
  const unknown = '<unknown>';
  switch (spec.type) {
    case 'External': {
      const t = spec.external?.target;
      if (t?.averageValue != null) {
        const cur = status?.external?.current?.averageValue;
        return `${cur != null ? text(cur) : unknown}/${text(t.averageValue)} (avg)`;
      }
      return `${status?.external ? text(status.external.current?.value) : unknown}/${text(t?.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? text(status.pods.current?.averageValue) : unknown}/${text(spec.pods?.target?.averageValue)}`;
    case 'Object': {
      const t = spec.object?.target;
      if (t?.averageValue != null) {
        const cur = status?.object?.current?.averageValue;
        return `${cur != null ? text(cur) : unknown}/${text(t.averageValue)} (avg)`;
      }
      return `${status?.object ? text(status.object.current?.value) : unknown}/${text(t?.value)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const container = spec.type === 'ContainerResource';
      const src = container ? spec.containerResource : spec.resource;
      const cur = container ? status?.containerResource : status?.resource;
      const name = src?.name ?? '';
      if (src?.target?.averageValue != null)
        return `${name}: ${cur ? text(cur.current?.averageValue) : unknown}/${text(src.target.averageValue)}`;
      const util = cur?.current?.averageUtilization;
      const target = src?.target?.averageUtilization;
      return `${name}: ${util != null ? `${util}%` : unknown}/${target != null ? `${target}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: the first two metrics, then `+ N more...`; `<none>` without metrics. */
export function formatHpaMetrics(specs: readonly MetricSpecV2[], statuses: readonly MetricStatusV2[]): string {
  if (!specs.length) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  if (list.length <= MAX_SHOWN) return list.join(', ');
  return `${list.slice(0, MAX_SHOWN).join(', ')} + ${list.length - MAX_SHOWN} more...`;
}

export const hpaPrinter: TablePrinter<Hpa> = {
  columns: [
    NAME_COLUMN,
    column(
      'Reference',
      'string',
      'reference to scaled resource; horizontal pod autoscaler will learn the current resource consumption and will set the desired number of pods by using its Scale subresource.',
    ),
    column(
      'Targets',
      'string',
      'the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).',
    ),
    column(
      'MinPods',
      'string',
      'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.',
    ),
    column(
      'MaxPods',
      'string',
      'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up.',
    ),
    column('Replicas', 'string', 'current number of replicas of pods managed by this autoscaler.'),
    AGE_COLUMN,
  ],
  cells(obj, now) {
    const spec = obj.spec ?? {};
    return [
      obj.metadata.name,
      `${spec.scaleTargetRef?.kind ?? ''}/${spec.scaleTargetRef?.name ?? ''}`,
      formatHpaMetrics(spec.metrics ?? [], obj.status?.currentMetrics ?? []),
      spec.minReplicas != null ? String(spec.minReplicas) : '<unset>',
      spec.maxReplicas ?? 0,
      obj.status?.currentReplicas ?? 0,
      age(obj, now),
    ];
  },
};

/** The printer of a version served over autoscaling/v2 storage: its objects printed as stored. */
export function hpaPrinterThrough(conversion: VersionConversion): TablePrinter {
  return {
    columns: hpaPrinter.columns,
    cells: (obj: ApiObject, now: Date) => hpaPrinter.cells(conversion.toStorage(obj) as Hpa, now),
  };
}

/**
 * Metric specs and statuses between autoscaling/v2 (source + MetricTarget / MetricValueStatus)
 * and the older shape autoscaling/v2beta1 and autoscaling/v1's annotations use
 * (targetAverageUtilization, targetAverageValue, targetValue, metricName), as upstream's
 * pkg/apis/autoscaling/v2beta1 and v1 conversion.go convert each source. Keys come in Go's
 * struct order and quantities in canonical form, so an annotation reads as upstream writes it.
 * `withNewFields` adds what 1.10's v2beta1 lacked (selectors, object averageValue, container
 * resources). Pure.
 */
import { recordOf } from '../../api/json.js';
import { canonicalQuantity } from '../../api/quantity.js';
import type { MetricSpecV2, MetricStatusV2 } from './hpa.schema.js';

type Json = Record<string, unknown>;
type Q = string | number | null | undefined;

/** A quantity as Go marshals it (canonical), or undefined. */
const quantity = (v: Q): string | undefined => (v === undefined || v === null ? undefined : canonicalQuantity(v));
/** A non-pointer Quantity: its zero value marshals as "0". */
const required = (v: Q): string => quantity(v) ?? '0';

/** `o` without its undefined values (Go's omitempty of nil pointers), keys in the given order. */
function clean(o: Json): Json {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null));
}

const ref = (r: { kind?: string | null; name?: string | null; apiVersion?: string | null } | null | undefined) =>
  clean({ kind: r?.kind ?? '', name: r?.name ?? '', apiVersion: r?.apiVersion || undefined });

/** A v2 metric spec in the old shape (undefined for a source the old shape cannot hold). */
export function metricSpecToOld(m: MetricSpecV2, withNewFields: boolean): Json | undefined {
  const out: Json = { type: m.type ?? '' };
  if (m.object) {
    const o = m.object;
    out.object = clean({
      target: ref(o.describedObject),
      metricName: o.metric?.name ?? '',
      targetValue: required(o.target?.value),
      selector: withNewFields ? (o.metric?.selector ?? undefined) : undefined,
      averageValue: withNewFields ? quantity(o.target?.averageValue) : undefined,
    });
  }
  if (m.pods)
    out.pods = clean({
      metricName: m.pods.metric?.name ?? '',
      targetAverageValue: required(m.pods.target?.averageValue),
      selector: withNewFields ? (m.pods.metric?.selector ?? undefined) : undefined,
    });
  if (m.resource)
    out.resource = clean({
      name: m.resource.name ?? '',
      targetAverageUtilization: m.resource.target?.averageUtilization ?? undefined,
      targetAverageValue: quantity(m.resource.target?.averageValue),
    });
  if (m.containerResource) {
    if (!withNewFields) return undefined;
    const c = m.containerResource;
    out.containerResource = clean({
      name: c.name ?? '',
      targetAverageUtilization: c.target?.averageUtilization ?? undefined,
      targetAverageValue: quantity(c.target?.averageValue),
      container: c.container ?? '',
    });
  }
  if (m.external)
    out.external = clean({
      metricName: m.external.metric?.name ?? '',
      metricSelector: m.external.metric?.selector ?? undefined,
      targetValue: quantity(m.external.target?.value),
      targetAverageValue: quantity(m.external.target?.averageValue),
    });
  return out;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = recordOf;
const metric = (name: unknown, selector: unknown) => clean({ name: str(name), selector: selector ?? undefined });

/** An old-shape metric spec as v2. */
export function metricSpecFromOld(m: Json): MetricSpecV2 {
  const out: Json = { type: str(m.type) };
  if (m.object) {
    const o = obj(m.object);
    out.object = {
      describedObject: ref(obj(o.target)),
      metric: metric(o.metricName, o.selector),
      target: clean({
        type: o.averageValue == null ? 'Value' : 'AverageValue',
        value: o.targetValue ?? '0',
        averageValue: o.averageValue ?? undefined,
      }),
    };
  }
  if (m.pods) {
    const p = obj(m.pods);
    out.pods = {
      metric: metric(p.metricName, p.selector),
      target: { type: 'AverageValue', averageValue: p.targetAverageValue ?? '0' },
    };
  }
  for (const kind of ['resource', 'containerResource'] as const) {
    if (!m[kind]) continue;
    const r = obj(m[kind]);
    out[kind] = clean({
      name: str(r.name),
      target: clean({
        type: r.targetAverageUtilization == null ? 'AverageValue' : 'Utilization',
        averageValue: r.targetAverageValue ?? undefined,
        averageUtilization: r.targetAverageUtilization ?? undefined,
      }),
      container: kind === 'containerResource' ? str(r.container) : undefined,
    });
  }
  if (m.external) {
    const e = obj(m.external);
    out.external = {
      metric: metric(e.metricName, e.metricSelector),
      target: clean({
        type: e.targetValue == null ? 'AverageValue' : 'Value',
        value: e.targetValue ?? undefined,
        averageValue: e.targetAverageValue ?? undefined,
      }),
    };
  }
  return out as MetricSpecV2;
}

/** A v2 metric status in the old shape (undefined for a source the old shape cannot hold). */
export function metricStatusToOld(m: MetricStatusV2, withNewFields: boolean): Json | undefined {
  const out: Json = { type: m.type };
  if (m.object) {
    const o = m.object;
    out.object = clean({
      target: ref(o.describedObject),
      metricName: o.metric?.name ?? '',
      currentValue: required(o.current?.value),
      selector: withNewFields ? (o.metric?.selector ?? undefined) : undefined,
      averageValue: withNewFields ? quantity(o.current?.averageValue) : undefined,
    });
  }
  if (m.pods)
    out.pods = clean({
      metricName: m.pods.metric?.name ?? '',
      currentAverageValue: required(m.pods.current?.averageValue),
      selector: withNewFields ? (m.pods.metric?.selector ?? undefined) : undefined,
    });
  if (m.resource)
    out.resource = clean({
      name: m.resource.name,
      currentAverageUtilization: m.resource.current?.averageUtilization ?? undefined,
      currentAverageValue: required(m.resource.current?.averageValue),
    });
  if (m.containerResource) {
    if (!withNewFields) return undefined;
    const c = m.containerResource;
    out.containerResource = clean({
      name: c.name,
      currentAverageUtilization: c.current?.averageUtilization ?? undefined,
      currentAverageValue: required(c.current?.averageValue),
      container: c.container,
    });
  }
  if (m.external)
    out.external = clean({
      metricName: m.external.metric?.name ?? '',
      metricSelector: m.external.metric?.selector ?? undefined,
      currentValue: required(m.external.current?.value),
      currentAverageValue: quantity(m.external.current?.averageValue),
    });
  return out;
}

/** An old-shape metric status as v2. */
export function metricStatusFromOld(m: Json): MetricStatusV2 {
  const out: Json = { type: str(m.type) };
  if (m.object) {
    const o = obj(m.object);
    out.object = {
      current: clean({ value: o.currentValue ?? '0', averageValue: o.averageValue ?? undefined }),
      describedObject: ref(obj(o.target)),
      metric: metric(o.metricName, o.selector),
    };
  }
  if (m.pods) {
    const p = obj(m.pods);
    out.pods = { current: { averageValue: p.currentAverageValue ?? '0' }, metric: metric(p.metricName, p.selector) };
  }
  for (const kind of ['resource', 'containerResource'] as const) {
    if (!m[kind]) continue;
    const r = obj(m[kind]);
    out[kind] = clean({
      name: str(r.name),
      current: clean({
        averageValue: r.currentAverageValue ?? '0',
        averageUtilization: r.currentAverageUtilization ?? undefined,
      }),
      container: kind === 'containerResource' ? str(r.container) : undefined,
    });
  }
  if (m.external) {
    const e = obj(m.external);
    out.external = {
      current: clean({ value: e.currentValue ?? '0', averageValue: e.currentAverageValue ?? undefined }),
      metric: metric(e.metricName, e.metricSelector),
    };
  }
  return out as MetricStatusV2;
}

/**
 * The resource metric of pods (upstream 1.33 pkg/controller/podautoscaler/metrics
 * client.go resourceMetricsClient.GetResourceMetric, getPodMetrics, getContainerMetrics): the
 * PodMetrics listed by selector, summed over a pod's containers (a pod missing the resource in
 * any container, or with no containers, has no sample), or taken from one container.
 */
import { parseGoDurationMs } from '../../../api/go-duration.js';
import { milliValue, parseQuantity } from '../../../api/quantity.js';
import type { PodMetrics, PodMetricsInfo, ResourceMetricsClient } from './types.js';

/** The samples and the time of the first PodMetrics. */
export interface ResourceMetricAnswer {
  readonly metrics: PodMetricsInfo;
  readonly timestamp: number;
}

const milli = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : Number(milliValue(parseQuantity(text)));

function windowMs(m: PodMetrics): number {
  try {
    return m.window ? parseGoDurationMs(m.window) : 0;
  } catch {
    return 0;
  }
}

/** The time of a sample; an unset one is Go's zero time (year 1), as upstream compares it. */
const timeOf = (t: string | undefined): number => (t ? Date.parse(t) : Date.parse('0001-01-01T00:00:00Z'));

const sampleOf = (m: PodMetrics, value: number) => ({
  value,
  timestamp: timeOf(m.timestamp),
  windowMs: windowMs(m),
});

function podMetrics(items: readonly PodMetrics[], resource: string): PodMetricsInfo {
  const out: PodMetricsInfo = new Map();
  for (const m of items) {
    const containers = m.containers ?? [];
    let sum = 0;
    let missing = containers.length === 0;
    for (const c of containers) {
      const v = milli(c.usage?.[resource]);
      if (v === undefined) {
        missing = true;
        break;
      }
      sum += v;
    }
    if (!missing) out.set(m.metadata.name ?? '', sampleOf(m, sum));
  }
  return out;
}

function containerMetrics(items: readonly PodMetrics[], resource: string, container: string): PodMetricsInfo {
  const out: PodMetricsInfo = new Map();
  for (const m of items) {
    const c = (m.containers ?? []).find((x) => x.name === container);
    if (!c)
      throw new Error(
        `container ${container} not present in metrics for pod ${m.metadata.namespace}/${m.metadata.name}`,
      );
    const v = milli(c.usage?.[resource]);
    if (v !== undefined) out.set(m.metadata.name ?? '', sampleOf(m, v));
  }
  return out;
}

/**
 * GetResourceMetric of `resource` (`cpu`, `memory`) for the pods of `namespace` matching
 * `selector`, of every container (`container` '') or one. Throws upstream's errors:
 * `unable to fetch metrics from resource metrics API: <cause>`, `no metrics returned from
 * resource metrics API`, `failed to get container metrics: <cause>`.
 */
export async function getResourceMetric(
  client: ResourceMetricsClient,
  resource: string,
  namespace: string,
  selector: string,
  container: string,
): Promise<ResourceMetricAnswer> {
  let items: PodMetrics[];
  try {
    items = await client.podMetrics(namespace, selector);
  } catch (err) {
    throw new Error(`unable to fetch metrics from resource metrics API: ${(err as Error).message}`, { cause: err });
  }
  if (items.length === 0) throw new Error('no metrics returned from resource metrics API');
  let metrics: PodMetricsInfo;
  if (container) {
    try {
      metrics = containerMetrics(items, resource, container);
    } catch (err) {
      throw new Error(`failed to get container metrics: ${(err as Error).message}`, { cause: err });
    }
  } else metrics = podMetrics(items, resource);
  return { metrics, timestamp: timeOf(items[0]?.timestamp) };
}

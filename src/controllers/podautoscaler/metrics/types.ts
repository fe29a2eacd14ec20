/**
 * The resource metrics the autoscaler reads (upstream 1.33 pkg/controller/podautoscaler/metrics
 * interfaces.go and the metrics.k8s.io/v1beta1 PodMetrics kind): one sample per pod, and the
 * client that lists the PodMetrics of a namespace by label selector, so tests give fake ones.
 */

/** A pod's sample: its value in milli-units, when it was taken and over which window (ms). */
export interface PodMetric {
  readonly value: number;
  readonly timestamp: number;
  readonly windowMs: number;
}

/** Samples by pod name (upstream PodMetricsInfo). */
export type PodMetricsInfo = Map<string, PodMetric>;

/** A metrics.k8s.io/v1beta1 PodMetrics as the autoscaler reads it. */
export interface PodMetrics {
  readonly metadata: { readonly name?: string; readonly namespace?: string };
  /** RFC 3339 time of the sample. */
  readonly timestamp?: string;
  /** Go duration of the window (`30s`, `1m0s`). */
  readonly window?: string;
  readonly containers?: readonly { readonly name?: string; readonly usage?: Readonly<Record<string, string>> }[];
}

/**
 * Lists PodMetrics (upstream's resource metrics client, `PodMetricses(ns).List`). Throws Error
 * whose message is the API's failure as client-go words it, e.g. `the server could not find the
 * requested resource (get pods.metrics.k8s.io)` when the metrics API is not served.
 */
export interface ResourceMetricsClient {
  /** The PodMetrics of `namespace` whose pods match `selector` (label-selector syntax). */
  podMetrics(namespace: string, selector: string): Promise<PodMetrics[]>;
}

/** client-go's text for a 404 from the metrics API (`NewNotFound`-shaped `the server could not find...`). */
export const METRICS_API_NOT_FOUND = 'the server could not find the requested resource (get pods.metrics.k8s.io)';

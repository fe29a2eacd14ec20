/**
 * The conversion webhook metrics, upstream's names, labels, help and buckets (apiextensions-apiserver
 * 1.33 pkg/apiserver/conversion/metrics.go): `apiserver_conversion_webhook_request_total` and
 * `apiserver_conversion_webhook_duration_seconds` by result (success, failure) and failure type,
 * and `apiserver_crd_conversion_webhook_duration_seconds` by definition and versions (observed
 * only when the versions differ). Create once per server registry and share between converters.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { ConversionFailureType } from '../../resources/customresources/conversion-review.js';

/** What a conversion webhook converter records. */
export interface ConversionMetrics {
  /** One webhook conversion's outcome: failureType '' for success. Seconds elapsed. */
  observeRequest(failureType: ConversionFailureType | 'success', seconds: number): void;
  /** A definition's conversion from one version to another (skipped when they are the same). */
  observeCrdConversion(crdName: string, fromVersion: string, toVersion: string, ok: boolean, seconds: number): void;
}

/** prometheus ExponentialBuckets(start, factor, count). */
const exponential = (start: number, factor: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => start * factor ** i);

/** Register the metrics on `registry` (once per registry: names are unique there). */
export function createConversionMetrics(registry: Registry): ConversionMetrics {
  const registers = [registry];
  const requests = new Counter({
    name: 'apiserver_conversion_webhook_request_total',
    help: 'Counter for conversion webhook requests with success/failure and failure error type',
    labelNames: ['result', 'failure_type'],
    registers,
  });
  const latency = new Histogram({
    name: 'apiserver_conversion_webhook_duration_seconds',
    help: 'Conversion webhook request latency',
    labelNames: ['result', 'failure_type'],
    buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 45, 60],
    registers,
  });
  const crd = new Histogram({
    name: 'apiserver_crd_conversion_webhook_duration_seconds',
    help: 'CRD webhook conversion duration in seconds',
    labelNames: ['crd_name', 'from_version', 'to_version', 'succeeded'],
    buckets: exponential(0.001, 2, 15),
    registers,
  });
  return {
    observeRequest(failureType, seconds) {
      const labels =
        failureType === 'success'
          ? { result: 'success', failure_type: '' }
          : { result: 'failure', failure_type: failureType };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    observeCrdConversion(crdName, fromVersion, toVersion, ok, seconds) {
      if (fromVersion === toVersion) return;
      crd.observe(
        { crd_name: crdName, from_version: fromVersion, to_version: toVersion, succeeded: String(ok) },
        seconds,
      );
    },
  };
}

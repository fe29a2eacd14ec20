/**
 * What the horizontal pod autoscaler reads and writes (upstream 1.33 pkg/controller/podautoscaler:
 * its HPA and pod listers, scale client with its REST mapper, UpdateStatus and event recorder),
 * as one interface so reconcileAutoscaler is tested without a server, plus the controller's
 * settings (upstream's kube-controller-manager flags) and names.
 */
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import type { Pod } from '../../resources/pods/pods.schema.js';
import type { LegacyEvent } from '../events.js';

/** The controller's name in `--controllers` (upstream's, on by default). */
export const HPA_CONTROLLER = 'horizontal-pod-autoscaler-controller';

/** Its service account in kube-system (upstream's horizontal-pod-autoscaler credentials). */
export const HPA_SERVICE_ACCOUNT = 'horizontal-pod-autoscaler';

/** The HPA status the controller writes. */
export type HpaStatus = NonNullable<Hpa['status']>;

/** A condition of an HPA (AbleToScale, ScalingActive, ScalingLimited). */
export type HpaCondition = NonNullable<HpaStatus['conditions']>[number];

/** An entry of status.currentMetrics. */
export type MetricStatus = NonNullable<HpaStatus['currentMetrics']>[number];

/** An entry of spec.metrics. */
export type MetricSpec = NonNullable<NonNullable<Hpa['spec']>['metrics']>[number];

/** Scaling rules of one direction (spec.behavior.scaleUp / scaleDown), defaults filled in. */
export type ScalingRules = NonNullable<NonNullable<NonNullable<Hpa['spec']>['behavior']>['scaleUp']>;

/**
 * An autoscaling/v1 Scale as the controller reads it: spec.replicas (the replicas asked for),
 * status.replicas and status.selector (label-selector syntax), and what the write needs.
 */
export interface ScaleView {
  readonly replicas: number;
  readonly statusReplicas: number;
  readonly selector: string;
  /** `<resource>.<group>` (upstream's GroupResource) the Scale was read through. */
  readonly resource: string;
  /** The Scale's resourceVersion, which its update carries (a 409 when the target moved). */
  readonly resourceVersion?: string;
}

/** Settings of the controller (upstream's --horizontal-pod-autoscaler-* flags). */
export interface HpaSettings {
  /** --horizontal-pod-autoscaler-sync-period (ms; 15 s). */
  readonly syncPeriodMs: number;
  /** --horizontal-pod-autoscaler-tolerance (0.1). */
  readonly tolerance: number;
  /** --horizontal-pod-autoscaler-downscale-stabilization (ms; 5 min). */
  readonly downscaleStabilizationMs: number;
  /** --horizontal-pod-autoscaler-initial-readiness-delay (ms; 30 s). */
  readonly initialReadinessDelayMs: number;
  /** --horizontal-pod-autoscaler-cpu-initialization-period (ms; 5 min). */
  readonly cpuInitializationPeriodMs: number;
}

/** Upstream's defaults of those flags. */
export const DEFAULT_HPA_SETTINGS: HpaSettings = Object.freeze({
  syncPeriodMs: 15_000,
  tolerance: 0.1,
  downscaleStabilizationMs: 5 * 60_000,
  initialReadinessDelayMs: 30_000,
  cpuInitializationPeriodMs: 5 * 60_000,
});

/** The reads (from the watch cache) and writes of the controller. */
export interface HpaClient {
  /** The HPA, undefined when it is gone. */
  getHpa(namespace: string, name: string): Promise<Hpa | undefined>;
  listHpas(namespace: string): Promise<Hpa[]>;
  /** Every pod of the namespace (the caller applies the selector). */
  listPods(namespace: string): Promise<Pod[]>;
  /**
   * The Scale of `kind` in `apiVersion` named `name` (upstream's RESTMappings then the scale
   * client's GET). Throws Error with upstream's text: `no matches for kind "X" in group "g"`,
   * `<resource>.<group> "name" not found`, or `... does not implement the scale subresource`.
   */
  getScale(apiVersion: string, kind: string, namespace: string, name: string): Promise<ScaleView>;
  /** The scale client's Update: spec.replicas of the Scale read as `scale`. Throws on failure. */
  updateScale(namespace: string, name: string, scale: ScaleView, replicas: number): Promise<void>;
  /** UpdateStatus through `horizontalpodautoscalers/status`. Throws on failure. */
  writeStatus(hpa: Hpa): Promise<void>;
  /** Record an Event about the HPA; best effort. */
  record(hpa: Hpa, event: LegacyEvent): void;
}

/** A metric's current value in the status (MetricValueStatus). */
export type MetricValueStatus = NonNullable<MetricStatus['resource']>['current'];

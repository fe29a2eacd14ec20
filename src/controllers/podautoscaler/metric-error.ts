/**
 * A metric that could not be computed (upstream 1.33 horizontal.go
 * getUnableComputeReplicaCountCondition): the error as computeReplicasForMetric wraps it, the
 * cause (the message of the Warning event of `reason`) and the ScalingActive=False condition.
 */
import type { ConditionChange } from './conditions.js';

export class MetricError extends Error {
  /**
   * @param message the error computeReplicasForMetric returns
   * @param reason the condition's and event's reason (`FailedGetResourceMetric`, ...)
   * @param detail the event's message, in the condition after its prefix
   * @param spec whether the HPA's spec is at fault (upstream's errSpec: an unknown metric type)
   */
  constructor(
    message: string,
    readonly reason: string,
    readonly detail: string,
    readonly spec = false,
  ) {
    super(message);
  }

  /** The ScalingActive=False condition upstream proposes for this failure. */
  get condition(): ConditionChange {
    return {
      type: 'ScalingActive',
      status: 'False',
      reason: this.reason,
      message: `the HPA was unable to compute the replica count: ${this.detail}`,
    };
  }
}

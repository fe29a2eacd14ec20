/**
 * PriorityLevelConfiguration defaults of flowcontrol.apiserver.k8s.io/v1 (k8s.io/kubernetes
 * pkg/apis/flowcontrol/v1 defaults.go, 1.33): a Limited level's nominalConcurrencyShares 30
 * when absent (an explicit 0 is kept) and lendablePercent 0; an Exempt level's
 * nominalConcurrencyShares and lendablePercent 0 when absent (only when `exempt` is given);
 * queuing: queues 64, handSize 8, queueLengthLimit 50 for each that is 0 or absent.
 */
import type { PriorityLevelConfiguration } from './prioritylevelconfigurations.schema.js';

export const DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
export const DEFAULT_QUEUES = 64;
export const DEFAULT_HAND_SIZE = 8;
export const DEFAULT_QUEUE_LENGTH_LIMIT = 50;

/** SetObjectDefaults_PriorityLevelConfiguration, in place. */
export function defaultPriorityLevelConfiguration(obj: PriorityLevelConfiguration): void {
  const { limited, exempt } = obj.spec ?? {};
  if (exempt) {
    exempt.nominalConcurrencyShares ??= 0;
    exempt.lendablePercent ??= 0;
  }
  if (!limited) return;
  limited.nominalConcurrencyShares ??= DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  limited.lendablePercent ??= 0;
  const queuing = limited.limitResponse?.queuing;
  if (!queuing) return;
  if (!queuing.handSize) queuing.handSize = DEFAULT_HAND_SIZE;
  if (!queuing.queues) queuing.queues = DEFAULT_QUEUES;
  if (!queuing.queueLengthLimit) queuing.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
}

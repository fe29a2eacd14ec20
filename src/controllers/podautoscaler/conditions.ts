/**
 * HPA status conditions (upstream 1.33 horizontal.go setCondition / setConditionInList): a
 * condition type is set in place (appended when absent); its lastTransitionTime moves only when
 * its status changes.
 */
import { rfc3339 } from '../../api/object.js';
import type { Hpa } from '../../resources/horizontalpodautoscalers/hpa.schema.js';
import type { HpaCondition } from './types.js';

/** The condition types an HPA carries. */
export type HpaConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/** A condition to set. */
export interface ConditionChange {
  readonly type: HpaConditionType;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** Set `change` on `hpa`'s status (mutates `hpa.status.conditions`), at time `now`. */
export function setCondition(hpa: Hpa, change: ConditionChange, now = new Date()): void {
  const status = (hpa.status ??= {});
  const list: HpaCondition[] = [...(status.conditions ?? [])];
  let i = list.findIndex((c) => c.type === change.type);
  if (i < 0) i = list.push({ type: change.type, status: '' }) - 1;
  const before = list[i]!;
  list[i] = {
    ...before,
    status: change.status,
    reason: change.reason,
    message: change.message,
    lastTransitionTime: before.status !== change.status ? rfc3339(now) : before.lastTransitionTime,
  };
  status.conditions = list;
}

/** The condition of `type` on `hpa`, if any. */
export const conditionOf = (hpa: Hpa, type: HpaConditionType): HpaCondition | undefined =>
  hpa.status?.conditions?.find((c) => c.type === type);

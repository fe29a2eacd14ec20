/**
 * A Job's successPolicy (upstream 1.33 pkg/controller/job/success_policy.go
 * matchSuccessPolicy, matchSucceededIndexesRule; JobSuccessPolicy is GA): an Indexed Job meets
 * its success criteria when a rule's succeededIndexes all succeeded, or succeededCount of them
 * (or of all indexes when the rule lists none) did. Pure.
 */
import type { JobSpec } from '../../resources/jobs/jobs.schema.js';
import { parseIndexes, totalIndexes, type OrderedIntervals } from './intervals.js';

/** spec.successPolicy. */
export type SuccessPolicy = NonNullable<JobSpec['successPolicy']>;

/**
 * The SuccessCriteriaMet message `Matched rules at index <i>` of the first rule met by
 * `succeeded`, or undefined. Rules whose succeededIndexes parse to nothing are skipped.
 */
export function matchSuccessPolicy(
  policy: SuccessPolicy | null | undefined,
  completions: number,
  succeeded: OrderedIntervals,
): string | undefined {
  if (!policy || !succeeded.length) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes != null) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (!required.length) continue;
      if (matchSucceededIndexesRule(required, succeeded, rule.succeededCount ?? undefined))
        return `Matched rules at index ${index}`;
    } else if (rule.succeededCount != null && totalIndexes(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}

/** Whether `succeeded` covers all of `required`, or at least `count` of them. */
export function matchSucceededIndexesRule(
  required: OrderedIntervals,
  succeeded: OrderedIntervals,
  count: number | undefined,
): boolean {
  let contains = 0;
  let s = 0;
  let r = 0;
  while (r < required.length && s < succeeded.length) {
    const [ri, si] = [required[r]!, succeeded[s]!];
    const overlap = Math.min(ri.last, si.last) - Math.max(ri.first, si.first) + 1;
    if (overlap > 0) contains += overlap;
    if (si.last < ri.last) s++;
    else if (si.last > ri.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === totalIndexes(required) || (count !== undefined && contains >= count);
}

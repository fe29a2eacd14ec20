/**
 * Ordered index intervals of Indexed Jobs (upstream 1.33 pkg/controller/job/indexed_job_utils.go
 * orderedIntervals: parseIndexesFromString, withOrderedIndexes, merge, total, String, has):
 * `status.completedIndexes` and `status.failedIndexes` are written in this compressed form,
 * `1,3-5,7`, where two consecutive indexes are written `3,4` rather than `3-4`. Pure.
 */

/** An inclusive range of completion indexes. */
export interface Interval {
  readonly first: number;
  readonly last: number;
}

/** Intervals in increasing order, neither overlapping nor adjacent. */
export type OrderedIntervals = readonly Interval[];

/**
 * The intervals of `text` below `completions` (upstream parseIndexesFromString): a corrupt
 * part (not a decimal integer) is skipped, parsing stops at a first index >= completions, a
 * last index past the end is cut to `completions - 1`, and adjacent parts are joined.
 */
export function parseIndexes(text: string | null | undefined, completions: number): Interval[] {
  if (!text) return [];
  const out: Interval[] = [];
  for (const part of text.split(',')) {
    const limits = part.split('-');
    const first = atoi(limits[0]!);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const parsed = atoi(limits[1]!);
      if (parsed === undefined) continue;
      last = Math.min(parsed, completions - 1);
    }
    const prev = out[out.length - 1];
    if (prev && prev.last === first - 1) out[out.length - 1] = { first: prev.first, last };
    else out.push({ first, last });
  }
  return out;
}

/** Go's strconv.Atoi: an optional sign and decimal digits. */
function atoi(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** `a` and `b` merged into one ordered list, overlapping or adjacent intervals joined (upstream merge). */
export function mergeIntervals(a: OrderedIntervals, b: OrderedIntervals): Interval[] {
  const out: Interval[] = [];
  const push = (iv: Interval) => {
    const prev = out[out.length - 1];
    if (!prev || iv.first > prev.last + 1) out.push(iv);
    else if (prev.last < iv.last) out[out.length - 1] = { first: prev.first, last: iv.last };
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) push(a[i]!.first < b[j]!.first ? a[i++]! : b[j++]!);
  while (i < a.length) push(a[i++]!);
  while (j < b.length) push(b[j++]!);
  return out;
}

/** `intervals` with the indexes `added` (increasing) merged in (upstream withOrderedIndexes). */
export function withOrderedIndexes(intervals: OrderedIntervals, added: readonly number[]): Interval[] {
  return mergeIntervals(
    intervals,
    added.map((ix) => ({ first: ix, last: ix })),
  );
}

/** How many indexes the intervals hold. */
export function totalIndexes(intervals: OrderedIntervals): number {
  return intervals.reduce((n, iv) => n + iv.last - iv.first + 1, 0);
}

/** The compressed text: `x`, `x,x+1` for two, `x-y` for more (upstream String). */
export function formatIntervals(intervals: OrderedIntervals): string {
  return intervals
    .map(({ first, last }) => (last === first ? `${first}` : `${first}${last === first + 1 ? ',' : '-'}${last}`))
    .join(',');
}

/** Whether `ix` is among the intervals (binary search, as upstream has). */
export function hasIndex(intervals: OrderedIntervals | undefined, ix: number): boolean {
  if (!intervals) return false;
  let lo = 0;
  let hi = intervals.length;
  while (hi > lo) {
    const mid = lo + ((hi - lo) >> 1);
    if (intervals[mid]!.last >= ix) hi = mid;
    else lo = mid + 1;
  }
  return hi < intervals.length && intervals[hi]!.first <= ix;
}

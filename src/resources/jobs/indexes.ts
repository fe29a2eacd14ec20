/**
 * Index interval lists of Indexed Jobs (`1,3-5,7`), as upstream's pkg/apis/batch/validation
 * parseIndexInterval, validateIndexesFormat and validateFailedIndexesNotOverlapCompleted parse
 * them: each problem is upstream's error text. Pure.
 */

type Interval = readonly [number, number];

/** strconv.Atoi: an optional sign and decimal digits (int64 range here). */
function atoi(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
}

/** parseIndexInterval: `x` or `x-y` below `completions`, increasing; an error text otherwise. */
export function parseIndexInterval(text: string, completions: number): Interval | string {
  const limits = text.split('-');
  if (limits.length > 2)
    return `the fragment ${JSON.stringify(text)} violates the requirement that an index interval can have at most two parts separated by '-'`;
  const x = atoi(limits[0]!);
  if (x === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[0])}`;
  if (x >= completions) return `too large index: ${JSON.stringify(limits[0])}`;
  if (limits.length === 1) return [x, x];
  const y = atoi(limits[1]!);
  if (y === undefined) return `cannot convert string to integer for index: ${JSON.stringify(limits[1])}`;
  if (y >= completions) return `too large index: ${JSON.stringify(limits[1])}`;
  if (x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
  return [x, y];
}

/** validateIndexesFormat: the number of indexes listed, or the error text. */
export function validateIndexesFormat(text: string, completions: number): number | string {
  if (!text) return 0;
  let last: number | undefined;
  let total = 0;
  for (const part of text.split(',')) {
    const interval = parseIndexInterval(part, completions);
    if (typeof interval === 'string') return interval;
    const [x, y] = interval;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** validateFailedIndexesNotOverlapCompleted: the overlap error text, or undefined. */
export function overlapError(completed: string, failed: string, completions: number): string | undefined {
  if (!completed || !failed) return undefined;
  const parse = (list: string[]) => list.map((p) => parseIndexInterval(p, completions));
  const cs = parse(completed.split(','));
  const fs = parse(failed.split(','));
  let c = 0;
  let f = 0;
  while (c < cs.length && f < fs.length) {
    const ci = cs[c]!;
    const fi = fs[f]!;
    if (typeof ci === 'string') c++;
    else if (typeof fi === 'string') f++;
    else {
      if (ci[0] <= fi[1] && fi[0] <= ci[1])
        return `failedIndexes and completedIndexes overlap at index: ${Math.max(ci[0], fi[0])}`;
      if (ci[0] <= fi[0]) c++;
      else f++;
    }
  }
  return undefined;
}

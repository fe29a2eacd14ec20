/**
 * Bounds on the shape of decoded documents, checked without recursion before any recursive
 * work (parse, clone, merge, schema check, encode) sees them. Upstream's decoders stop at a
 * nesting depth of 10,000 (k8s.io/apimachinery json/yaml, kube-openapi); our recursive paths
 * break far earlier on Node's default stack (measured from a fresh stack with
 * test/fuzz/measure-depth.ts: `yaml` stringify 613 levels, `yaml` parse 785 (flow), 878
 * (block mappings), 934 (compact sequences), where inside the server it may instead abort the
 * process with a fatal RegExpCompiler error; strategic merge 1,757, structuredClone 1,921,
 * merge patch 3,575, JSON.stringify 4,103; JSON.parse and zod do not recurse on the data), so
 * we allow 100 levels: 6x under the weakest path, and far above the deepest real object (a
 * ReplicationController's pod template affinity terms nest about 15 levels).
 * Pure; no I/O.
 */

/** Most nested objects and arrays a request body, patch document or patched object may have. */
export const MAX_NESTING_DEPTH = 100;

/**
 * Most values (objects, arrays and scalars) a decoded document may hold. A 3 MiB body holds at
 * most about 1.5 million; the bound matters where values are multiplied: YAML aliases and JSON
 * patch `copy` operations.
 */
export const MAX_VALUE_COUNT = 3_000_000;

/**
 * The deepest nesting of `[`/`{` in JSON text, outside strings, stopping as soon as it passes
 * `max` (then `max + 1` is answered). Malformed text is scanned as far as it goes; the parser
 * reports its errors afterwards.
 */
export function jsonTextDepth(text: string, max = MAX_NESTING_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if ((c === 0x5d /* ] */ || c === 0x7d) /* } */ && depth > 0) depth--;
  }
  return deepest;
}

/** What is wrong with a decoded value: too deep, too many values, or not plain JSON. */
export interface ValueProblem {
  readonly reason: 'depth' | 'count' | 'type';
  /** JSON-pointer-like location, e.g. `/spec/containers/0` (`` for the root). */
  readonly at: string;
  readonly message: string;
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Walk `value` without recursion and report the first problem: nesting deeper than `maxDepth`
 * (a value that contains itself, as YAML aliases can build, is reported as too deep), more
 * than `maxCount` values, or anything that is not plain JSON (non-finite numbers, functions,
 * byte arrays, Maps, Sets, Dates, class instances). Returns null for a bounded JSON value.
 */
export function valueProblem(
  value: unknown,
  maxDepth = MAX_NESTING_DEPTH,
  maxCount = MAX_VALUE_COUNT,
): ValueProblem | null {
  const stack: { v: unknown; depth: number; at: string }[] = [{ v: value, depth: 0, at: '' }];
  let count = 0;
  while (stack.length > 0) {
    const { v, depth, at } = stack.pop()!;
    if (++count > maxCount) return { reason: 'count', at, message: `more than ${maxCount} values` };
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { reason: 'type', at, message: `unsupported value: ${String(v)}` };
      continue;
    }
    if (typeof v !== 'object' || !(Array.isArray(v) || isPlainObject(v))) {
      const what = typeof v === 'object' ? (Object.getPrototypeOf(v)?.constructor?.name ?? 'object') : typeof v;
      return { reason: 'type', at, message: `unsupported value of type ${what}` };
    }
    if (depth + 1 > maxDepth) return { reason: 'depth', at, message: `nesting deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, at: `${at}/${i}` });
    } else {
      for (const k of Object.keys(v))
        stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, at: `${at}/${k}` });
    }
  }
  return null;
}

/**
 * Nesting depth and value count of a plain JSON value, without recursion. Stops counting once
 * `count` passes `maxCount` (so a value that contains itself ends too).
 */
export function measureValue(value: unknown, maxCount = MAX_VALUE_COUNT): { depth: number; count: number } {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  let deepest = 0;
  let count = 0;
  while (stack.length > 0 && count <= maxCount) {
    const { v, depth } = stack.pop()!;
    count++;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, depth: depth + 1 });
  }
  return { depth: deepest, count };
}

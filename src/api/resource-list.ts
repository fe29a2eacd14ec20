/**
 * ResourceList arithmetic (upstream pkg/quota/resources.go and the LimitRanger's sums): maps of
 * resource name -> Quantity, as pods' requests and limits and quotas' hard and used values.
 */
import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  negateQuantity,
  parseQuantity,
  QuantityError,
  subtractQuantities,
  type Quantity,
} from './quantity.js';

/** Resource name -> exact quantity. */
export type ResourceList = Map<string, Quantity>;

/**
 * Parse a JSON resource list (`{cpu: '500m', memory: '1Gi'}`); absent gives an empty list.
 * Never throws: a value that is not a quantity (schema validation refuses those, so only data
 * stored before it could hold one) is left out, as upstream could never have decoded it.
 * `reparse` reads each value as upstream's informers do, from its canonical text.
 */
export function parseResourceList(raw: unknown, reparse = false): ResourceList {
  const out: ResourceList = new Map();
  if (raw && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof v !== 'string' && typeof v !== 'number') continue;
      try {
        const q = parseQuantity(v);
        out.set(k, reparse ? parseQuantity(formatQuantity(q)) : q);
      } catch (err) {
        if (!(err instanceof QuantityError)) throw err;
      }
    }
  }
  return out;
}

/** A resource list as JSON: canonical quantity strings, keys sorted. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = formatQuantity(list.get(k)!);
  return out;
}

/** `a + b` key by key (upstream quota.Add). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addQuantities(cur, v) : v);
  }
  return out;
}

/** `a - b` key by key; keys only in `b` appear negated (upstream quota.Subtract). */
export function subtractLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? subtractQuantities(cur, v) : negateQuantity(v));
  }
  return out;
}

/** The larger value of each key (upstream quota.Max). */
export function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    if (!cur || compareQuantities(v, cur) > 0) out.set(k, v);
  }
  return out;
}

/** Only the keys in `names` (upstream quota.Mask). */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const k of names) {
    const v = list.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

/** Without zero values (upstream quota.RemoveZeros). */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, v]) => v.coef !== 0n));
}

/**
 * Whether every value of `a` is at most the same key's value in `b` (a key missing in `b` is
 * unbounded); also the keys that exceed (upstream quota.LessThanOrEqual).
 */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of a) {
    const limit = b.get(k);
    if (limit && compareQuantities(v, limit) > 0) exceeded.push(k);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** `k1=v1,k2=v2` in key order with canonical values (upstream resourcequota prettyPrint). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k)!)}`)
    .join(',');
}

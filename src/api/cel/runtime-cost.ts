/**
 * The run-time cost of one call, as cel-go's CostTracker.costCall (interpreter/runtimecost.go)
 * computes it after the Kubernetes estimator (k8s.io/apiserver pkg/cel/library/cost.go CallCost)
 * had its say. `args` holds the receiver first for member calls, as cel-go passes them.
 * Constants: StringTraversalCostFactor 0.1, RegexStringLengthCostFactor 0.25.
 */
import { CelMap, CelObject, CelOpaque, type Result, type Value, actualSize } from './values.js';

/** cel-go common.StringTraversalCostFactor. */
export const STRING_TRAVERSAL = 0.1;
/** cel-go common.RegexStringLengthCostFactor. */
export const REGEX_LENGTH = 0.25;
/** cel-go common/cost.go. */
export const LIST_CREATE_BASE = 10;
export const MAP_CREATE_BASE = 30;
export const STRUCT_CREATE_BASE = 40;

const ceil = Math.ceil;
const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The Kubernetes library's traversalCost of a value (lists and maps summed over their entries). */
export function traversalCost(v: Value): number {
  if (typeof v === 'string') return Math.trunc(utf8Length(v) * STRING_TRAVERSAL);
  if (v instanceof Uint8Array) return Math.trunc(v.length * STRING_TRAVERSAL);
  if (Array.isArray(v)) return v.reduce((s: number, x: Value) => s + traversalCost(x), 0);
  if (v instanceof CelMap) {
    let c = 0;
    for (const [k, x] of v.entries.values()) c += traversalCost(k) + traversalCost(x);
    return c;
  }
  if (v instanceof CelObject) {
    let c = 0;
    for (const [k, x] of v.fields) c += traversalCost(k) + traversalCost(x);
    return c;
  }
  return 1;
}

const K8S_UNIT = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'reason',
  'error',
  'errored',
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'format.named',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'major',
  'minor',
  'patch',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
]);

/** The Kubernetes CallCost, or undefined when it has none for this call. */
function kubernetesCost(fn: string, overloadId: string, args: readonly Value[], result: Result): number | undefined {
  const size0 = () => actualSize(args[0]);
  if (K8S_UNIT.has(fn)) return 1;
  switch (fn) {
    case 'check':
      // An authorization check: fixed, so that two fit in one expression's per-call limit.
      return 350_000;
    case 'fieldSelector':
    case 'labelSelector': {
      // selectorCostEstimate: a list, the parse, and per requirement (one per 2 characters) a struct and a list.
      const n = actualSize(args[1]);
      return (
        LIST_CREATE_BASE + ceil(n * STRING_TRAVERSAL) + ceil(ceil(n * 0.5) * (LIST_CREATE_BASE + STRUCT_CREATE_BASE))
      );
    }
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
    case 'includes':
      return args.length > 0 ? traversalCost(args[0]!) : 0;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return ceil(size0() * STRING_TRAVERSAL);
    case 'replace':
    case 'split':
      return ceil(size0() * 2 * STRING_TRAVERSAL);
    case 'join':
      return ceil(actualSize(result instanceof Error ? undefined : (result as Value)) * 2 * STRING_TRAVERSAL);
    case 'find':
    case 'findAll':
      if (args.length >= 2) {
        return ceil((1 + size0()) * STRING_TRAVERSAL) * ceil(actualSize(args[1]) * REGEX_LENGTH);
      }
      return undefined;
    case 'ip':
      return overloadId === 'cidr_ip' ? 1 : ceil(size0() * STRING_TRAVERSAL);
    case 'ip.isCanonical':
      return ceil(size0() * 2 * STRING_TRAVERSAL);
    case 'containsIP':
    case 'containsCIDR': {
      if (args.length < 2) return undefined;
      const cidr = size0();
      let c = ceil((cidr + cidr) * STRING_TRAVERSAL);
      if (fn === 'containsCIDR') c += ceil(cidr * STRING_TRAVERSAL) + 1;
      if (overloadId === 'cidr_contains_ip_string' || overloadId === 'cidr_contains_cidr_string') {
        c += ceil(actualSize(args[1]) * STRING_TRAVERSAL);
      }
      return c;
    }
    case '_==_': {
      return args[0] instanceof CelOpaque ? 1 : undefined;
    }
  }
  return undefined;
}

/** The cost of one call of overload `overloadId` of `fn` with `args` (receiver first) giving `result`. */
export function callCost(fn: string, overloadId: string, args: readonly Value[], result: Result): number {
  const k = kubernetesCost(fn, overloadId, args, result);
  if (k !== undefined) return k;
  switch (overloadId) {
    case 'starts_with_string':
    case 'ends_with_string':
      return ceil(actualSize(args[1]) * STRING_TRAVERSAL);
    case 'in_list':
      return actualSize(args[1]);
    case 'less_string':
    case 'greater_string':
    case 'less_equals_string':
    case 'greater_equals_string':
    case 'less_bytes':
    case 'greater_bytes':
    case 'less_equals_bytes':
    case 'greater_equals_bytes':
    case 'equals':
    case 'not_equals':
      return ceil(Math.min(actualSize(args[0]), actualSize(args[1])) * STRING_TRAVERSAL);
    case 'add_string':
    case 'add_bytes':
      return ceil((actualSize(args[0]) + actualSize(args[1])) * STRING_TRAVERSAL);
    case 'matches_string':
    case 'matches':
      return ceil((1 + actualSize(args[0])) * STRING_TRAVERSAL) * ceil(actualSize(args[1]) * REGEX_LENGTH);
    case 'contains_string':
      return ceil(actualSize(args[0]) * STRING_TRAVERSAL) * ceil(actualSize(args[1]) * STRING_TRAVERSAL);
    case 'string_to_bytes':
    case 'bytes_to_string':
    case 'strings_quote':
      return ceil(actualSize(args[0]) * STRING_TRAVERSAL);
  }
  return 1;
}

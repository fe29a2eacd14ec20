/**
 * The Kubernetes libraries' static cost estimates (k8s.io/apiserver pkg/cel/library/cost.go
 * EstimateCallCost), without the arguments' own costs: list functions by size × element
 * traversal, string functions by size × 0.1, regex find by string × pattern, IP/CIDR, quantity,
 * semver, format validate, and `==` on opaque types at 1.
 */
import type { Expr } from './ast.js';
import { K8S_UNIT, ONE, type Range, UNKNOWN, add, factor, mul } from './cost-range.js';
import { REGEX_LENGTH, STRING_TRAVERSAL } from './runtime-cost.js';
import type { CelType } from './types.js';

/** What the estimate needs from the estimator walking the expression. */
export interface EstimateContext {
  sizeOrUnknown(e: Expr | undefined): Range;
  pathOf(e: Expr): string[] | undefined;
  typeOf(e: Expr): CelType | undefined;
  estimateByPath(path: string[] | undefined): Range | undefined;
}

/** The estimate of a call of `fn` (overload `id`), or undefined when the library has none. */
export function kubernetesEstimate(
  ctx: EstimateContext,
  fn: string,
  id: string,
  target: Expr | undefined,
  args: Expr[],
): { cost: Range; size?: Range } | undefined {
  const { sizeOrUnknown, pathOf, typeOf, estimateByPath } = ctx;
  const unit = { cost: ONE };
  switch (fn) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) return undefined;
      if (typeOf(target)?.kind !== 'list') return { cost: factor(sizeOrUnknown(target), STRING_TRAVERSAL) };
      const lt = typeOf(target)!;
      const elemType = lt.kind === 'list' ? lt.elem : undefined;
      let el = ONE;
      if (elemType?.kind === 'prim' && (elemType.name === 'string' || elemType.name === 'bytes')) {
        const p = pathOf(target);
        el = add(el, factor(estimateByPath(p && [...p, '@items']) ?? UNKNOWN, STRING_TRAVERSAL));
      }
      return { cost: mul(sizeOrUnknown(target), el) };
    }
    case 'url':
      return { cost: factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL), size: sizeOrUnknown(args[0]) };
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      if (!target) return undefined;
      return { cost: factor(sizeOrUnknown(target), STRING_TRAVERSAL), size: sizeOrUnknown(target) };
    case 'replace':
    case 'split':
      if (!target) return undefined;
      return {
        cost: factor(sizeOrUnknown(target), 2 * STRING_TRAVERSAL),
        size: fn === 'split' ? { min: 0, max: sizeOrUnknown(target).max } : undefined,
      };
    case 'join': {
      if (!target) return undefined;
      const p = pathOf(target);
      const elem = estimateByPath(p && [...p, '@items']) ?? UNKNOWN;
      let sz = mul(sizeOrUnknown(target), elem);
      if (args.length) {
        const list = sizeOrUnknown(target);
        sz = add(sz, mul(sizeOrUnknown(args[0]), { min: Math.max(0, list.min - 1), max: Math.max(0, list.max - 1) }));
      }
      return { cost: factor(sz, STRING_TRAVERSAL), size: sz };
    }
    case 'find':
    case 'findAll': {
      if (!target || !args.length) return undefined;
      const sz = sizeOrUnknown(target);
      const strCost = factor(add(sz, ONE), STRING_TRAVERSAL);
      return { cost: mul(strCost, factor(sizeOrUnknown(args[0]), REGEX_LENGTH)), size: { min: 0, max: sz.max } };
    }
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
      return { cost: factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL) };
    case 'ip':
      return id === 'cidr_ip' ? unit : { cost: factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL) };
    case 'ip.isCanonical':
      return { cost: factor(sizeOrUnknown(args[0]), 2 * STRING_TRAVERSAL) };
    case 'containsIP':
    case 'containsCIDR': {
      const sz = { min: 4, max: 16 };
      let c = factor(add(sz, sz), STRING_TRAVERSAL);
      if (fn === 'containsCIDR') c = add(add(c, factor(sz, STRING_TRAVERSAL)), ONE);
      if (id.endsWith('_string')) c = add(c, factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL));
      return { cost: c };
    }
    case 'validate':
      return { cost: factor(factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL), 128 * REGEX_LENGTH) };
    case '_==_': {
      const t = typeOf(args[0]!);
      if (t?.kind === 'opaque' && t.name !== 'optional_type') {
        return t.name === 'kubernetes.NamedFormat' ? { cost: factor({ min: 1, max: 64 }, STRING_TRAVERSAL) } : unit;
      }
      return undefined;
    }
  }
  if (K8S_UNIT.has(fn)) return unit;
  return undefined;
}

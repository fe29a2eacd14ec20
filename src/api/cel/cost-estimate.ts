/**
 * Static cost estimation of a checked rule: a port of cel-go's checker/cost.go (identifiers and
 * selections 1, presence tests 0, literals 0, list/map creation 10/30, comprehensions range size ×
 * (condition + step), `&&`/`||`/`?:` their operands, string and list functions by size) with the
 * size estimator of apiextensions-apiserver (compilation.go sizeEstimator: a path from `self`
 * through fields, `@items`, `@keys`, `@values` to a DeclType's maxElements) and the Kubernetes
 * library estimates of k8s.io/apiserver pkg/cel/library/cost.go EstimateCallCost. Left out
 * (conservative: unknown sizes count as 2^64-1): cel-go's newer per-entry size tracking.
 */
import type { Expr } from './ast.js';
import type { Checked } from './checker.js';
import type { DeclType } from './decl-type.js';
import { LIST_CREATE_BASE, MAP_CREATE_BASE, REGEX_LENGTH, STRING_TRAVERSAL } from './runtime-cost.js';
import type { CelType } from './types.js';
import { codePointLength } from './values.js';
import { kubernetesEstimate } from './cost-estimate-k8s.js';
import { ONE, type Range, UNKNOWN, ZERO, add, factor, fixed, mul, union } from './cost-range.js';

export { type Range, UINT64_MAX } from './cost-range.js';

interface LocalVar {
  path?: string[];
  size?: Range;
}

/** Estimate the cost of `checked`, whose variables `self`/`oldSelf` have DeclType `root`. */
export function estimateCost(checked: Checked, root: DeclType): Range {
  const paths = new Map<number, string[]>();
  const sizes = new Map<number, Range>();
  const locals = new Map<string, LocalVar[]>();
  const peek = (n: string) => locals.get(n)?.at(-1);
  const push = (n: string, v: LocalVar) => locals.set(n, [...(locals.get(n) ?? []), v]);
  const pop = (n: string) => locals.get(n)?.pop();
  const typeOf = (e: Expr): CelType | undefined => checked.types.get(e.id);

  const pathOf = (e: Expr): string[] | undefined =>
    e.kind === 'ident' && peek(e.name) ? peek(e.name)!.path : paths.get(e.id);

  const estimateByPath = (path: string[] | undefined): Range | undefined => {
    if (!path?.length || (path[0] !== 'self' && path[0] !== 'oldSelf')) return undefined;
    let t: DeclType | undefined = root;
    for (const p of path.slice(1)) {
      if (p === '@items' || p === '@values') t = t?.elem;
      else if (p === '@keys') return t?.kind === 'map' ? ZERO : undefined;
      else t = t?.fields?.get(p)?.type;
      if (!t) return undefined;
    }
    return { min: 0, max: t.maxElements };
  };

  const sizeOf = (e: Expr): Range | undefined => {
    const s = sizes.get(e.id);
    if (s) return s;
    if (e.kind === 'const') {
      if (typeof e.value === 'string') return fixed(codePointLength(e.value));
      if (e.value instanceof Uint8Array) return fixed(e.value.length);
    }
    if (e.kind === 'list') return fixed(e.elems.length);
    if (e.kind === 'map') return fixed(e.entries.length);
    const p = pathOf(e);
    const byPath = estimateByPath(p && (p[0] === '@result' ? undefined : p));
    if (byPath) return byPath;
    const t = typeOf(e);
    if (t?.kind === 'prim' && !['string', 'bytes'].includes(t.name)) return ONE;
    if (e.kind === 'ident') return peek(e.name)?.size;
    return undefined;
  };
  const sizeOrUnknown = (e: Expr | undefined): Range => (e && sizeOf(e)) || UNKNOWN;

  const cost = (e: Expr): Range => {
    switch (e.kind) {
      case 'const':
        return ZERO;
      case 'ident':
        if (!peek(e.name)) paths.set(e.id, [e.name]);
        return ONE;
      case 'select': {
        if (e.testOnly) return cost(e.operand);
        let c = cost(e.operand);
        const t = typeOf(e.operand);
        if (t && (t.kind === 'map' || t.kind === 'object' || t.kind === 'dyn')) c = add(c, ONE);
        const p = pathOf(e.operand);
        if (p) paths.set(e.id, [...p, e.field]);
        return c;
      }
      case 'list':
        return e.elems.reduce((s, x) => add(s, cost(x)), fixed(LIST_CREATE_BASE));
      case 'map':
        return e.entries.reduce((s, x) => add(add(s, cost(x.key)), cost(x.value)), fixed(MAP_CREATE_BASE));
      case 'comprehension':
        return comprehension(e);
      case 'call':
        return call(e);
    }
  };

  const comprehension = (e: Expr & { kind: 'comprehension' }): Range => {
    let sum = add(cost(e.iterRange), cost(e.accuInit));
    push(e.accuVar, { path: pathOf(e.accuInit), size: sizeOf(e.accuInit) });
    const rangePath = pathOf(e.iterRange);
    const isList = typeOf(e.iterRange)?.kind === 'list';
    const sub = (s: string) => (rangePath ? [...rangePath, s] : undefined);
    if (e.iterVar2) {
      push(e.iterVar, { path: sub(isList ? '@indices' : '@keys') });
      push(e.iterVar2, { path: sub(isList ? '@items' : '@values') });
    } else {
      push(e.iterVar, { path: sub(isList ? '@items' : '@keys') });
    }
    const loop = add(cost(e.loopCondition), cost(e.loopStep));
    pop(e.iterVar);
    if (e.iterVar2) pop(e.iterVar2);
    sum = add(sum, cost(e.result));
    pop(e.accuVar);
    const range = sizeOrUnknown(e.iterRange);
    sum = add(sum, mul(range, loop));
    if (e.accuInit.kind === 'list' || e.accuInit.kind === 'map') sizes.set(e.id, range);
    else if (e.accuInit.kind === 'const') {
      const s = sizeOf(e.accuInit);
      if (s) sizes.set(e.id, s);
    }
    return sum;
  };

  const call = (e: Expr & { kind: 'call' }): Range => {
    const qualified = checked.qualified.get(e.id);
    const target = qualified ? undefined : e.target;
    const fn = qualified ?? e.fn;
    if (fn === 'dyn' && e.args.length === 1) {
      const c = add(ONE, cost(e.args[0]!));
      const s = sizeOf(e.args[0]!);
      if (s) sizes.set(e.id, s);
      return c;
    }
    const argCosts = e.args.map(cost);
    const ids = checked.overloads.get(e.id) ?? [];
    if (!ids.length) return ZERO;
    const targetCost = target ? cost(target) : ZERO;
    let fnCost: Range | undefined;
    let resultSize: Range | undefined;
    for (const id of ids) {
      const r = functionCost(fn, id, target, e.args, argCosts);
      fnCost = fnCost ? union(fnCost, r.cost) : r.cost;
      if (r.size) resultSize = resultSize ? union(resultSize, r.size) : r.size;
      if (id === 'index_list' || id === 'index_map') {
        const p = pathOf(e.args[0]!);
        if (p) paths.set(e.id, [...p, id === 'index_list' ? '@items' : '@values']);
      }
    }
    if (resultSize) sizes.set(e.id, resultSize);
    return add(targetCost, fnCost!);
  };

  const sumOf = (cs: Range[]) => cs.reduce(add, ZERO);
  const functionCost = (
    fn: string,
    id: string,
    target: Expr | undefined,
    args: Expr[],
    argCosts: Range[],
  ): { cost: Range; size?: Range } => {
    const argSum = sumOf(argCosts);
    const k = kubernetesEstimate({ sizeOrUnknown, pathOf, typeOf, estimateByPath }, fn, id, target, args);
    if (k) return { cost: add(k.cost, argSum), size: k.size };
    switch (id) {
      case 'starts_with_string':
      case 'ends_with_string':
        return { cost: add(factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL), argSum) };
      case 'in_list':
        return { cost: add(sizeOrUnknown(args[1]), argSum) };
      case 'matches_string':
      case 'matches': {
        const [str, re] = target ? [target, args[0]] : [args[0], args[1]];
        const strCost = factor(add(sizeOrUnknown(str), ONE), STRING_TRAVERSAL);
        return { cost: add(mul(strCost, factor(sizeOrUnknown(re), REGEX_LENGTH)), argSum) };
      }
      case 'contains_string':
        return {
          cost: add(
            mul(factor(sizeOrUnknown(target), STRING_TRAVERSAL), factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL)),
            argSum,
          ),
        };
      case 'logical_and':
      case 'logical_or':
        return { cost: { min: argCosts[0]!.min, max: add(argCosts[0]!, argCosts[1]!).max } };
      case 'conditional':
        return {
          cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)),
          size: union(sizeOrUnknown(args[1]), sizeOrUnknown(args[2])),
        };
      case 'add_string':
      case 'add_bytes':
      case 'add_list': {
        const size = add(sizeOrUnknown(args[0]), sizeOrUnknown(args[1]));
        const c = id === 'add_list' ? ONE : factor(size, STRING_TRAVERSAL);
        return { cost: add(c, argSum), size };
      }
      case 'string_to_bytes':
      case 'bytes_to_string':
      case 'strings_quote':
        return { cost: add(factor(sizeOrUnknown(args[0]), STRING_TRAVERSAL), argSum) };
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const smallest = Math.min(sizeOrUnknown(args[0]).max, sizeOrUnknown(args[1]).max);
        return { cost: add(factor({ min: smallest > 0 ? 1 : 0, max: smallest }, STRING_TRAVERSAL), argSum) };
      }
    }
    return { cost: add(ONE, argSum) };
  };

  return cost(checked.ast.expr);
}

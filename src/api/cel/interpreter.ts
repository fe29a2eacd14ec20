/**
 * Evaluates a checked CEL expression (cel-go interpreter) and counts its run-time cost as cel-go's
 * CostTracker does with Kubernetes' options: 1 per identifier and field selection (presence tests
 * free), 0 per literal, list/map creation 10/30, each call its {@link callCost}; `&&`, `||` and
 * `?:` cost only their operands. Evaluation stops with {@link CostLimitExceeded} as soon as the
 * cost passes the limit (cel-go: `operation cancelled: actual cost limit exceeded`). `&&`/`||`
 * absorb errors as CEL specifies (`false && error` is false).
 */
import { type Expr, qualifiedName, rootIdent } from './ast.js';
import { fieldName } from './decl-type.js';
import type { Checked } from './checker.js';
import { dispatch, type FunctionRegistry } from './functions.js';
import { LIST_CREATE_BASE, MAP_CREATE_BASE, callCost } from './runtime-cost.js';
import { TYPE_IDENTS } from './stdlib.js';
import { optionalAccess } from './optional-syntax.js';
import { CelErr, CelMap, CelObject, CelOptional, CelTypeValue, type Result, type Value, mapKey } from './values.js';

/** Thrown when the per-call cost limit is passed. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** The result of one evaluation: a value or an error value, and the cost counted. */
export interface Evaluation {
  result: Result;
  cost: number;
}

/**
 * Evaluate `checked` with variables `vars`. Throws CostLimitExceeded when the cost passes
 * `limit` (the cost so far is on the error's `cost`); never throws for CEL errors.
 */
export function evaluate(
  checked: Checked,
  vars: ReadonlyMap<string, Value>,
  functions: FunctionRegistry,
  limit = Number.POSITIVE_INFINITY,
): Evaluation {
  let cost = 0;
  const add = (c: number): void => {
    cost += c;
    if (cost > limit) {
      const e = new CostLimitExceeded();
      (e as CostLimitExceeded & { cost: number }).cost = cost;
      throw e;
    }
  };
  const scopes: Map<string, Result>[] = [];
  const qualifiedNames = referencesQualified(checked);
  const lookup = (name: string): Result | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const s = scopes[i]!;
      if (s.has(name)) return s.get(name);
    }
    return vars.get(name);
  };

  const ev = (e: Expr): Result => {
    switch (e.kind) {
      case 'const':
        return e.value;
      case 'ident': {
        add(1);
        const v = lookup(e.name);
        if (v !== undefined) return v;
        return TYPE_IDENTS.has(e.name) ? new CelTypeValue(e.name) : new CelErr(`no such attribute: ${e.name}`);
      }
      case 'select': {
        const ti = typeIdent(e);
        if (ti) return ti;
        const qv = qualifiedVar(e);
        if (qv !== undefined) {
          add(1);
          return qv;
        }
        const o = ev(e.operand);
        if (o instanceof CelErr) return o;
        if (e.testOnly) {
          const f =
            o instanceof CelObject
              ? o.fields.get(fieldName(o.fields, e.field))
              : o instanceof CelMap
                ? o.get(e.field)
                : undefined;
          if ((f as Result) instanceof CelErr) return f as unknown as CelErr;
          if (o instanceof CelObject || o instanceof CelMap) return f !== undefined;
          return new CelErr('invalid type for field selection.');
        }
        add(relative(e.operand) ? 2 : 1);
        if (o instanceof CelOptional) return optionalAccess('_?._', o, e.field);
        const v =
          o instanceof CelObject
            ? o.fields.get(fieldName(o.fields, e.field))
            : o instanceof CelMap
              ? o.get(e.field)
              : undefined;
        if (v !== undefined) return v;
        return o instanceof CelObject || o instanceof CelMap
          ? new CelErr(`no such key: ${e.field}`)
          : new CelErr(`type '${typeof o}' does not support field selection`);
      }
      case 'list': {
        if (constant(e)) return constantValue(e);
        const out: Value[] = [];
        let err: CelErr | undefined;
        e.elems.forEach((x, i) => {
          const v = ev(x);
          if (v instanceof CelErr) err ??= v;
          else if (!e.optional?.includes(i)) out.push(v);
          else if (v instanceof CelOptional) {
            if (v.value !== undefined) out.push(v.value);
          } else err ??= new CelErr('no such overload');
        });
        add(LIST_CREATE_BASE);
        return err ?? out;
      }
      case 'map': {
        if (constant(e)) return constantValue(e);
        const m = new CelMap();
        let err: CelErr | undefined;
        for (const en of e.entries) {
          const k = ev(en.key);
          const v = ev(en.value);
          if (k instanceof CelErr) err ??= k;
          else if (v instanceof CelErr) err ??= v;
          else if (m.has(k)) err ??= new CelErr(`Failed with repeated key`);
          else if (!en.optional) m.entries.set(mapKey(k), [k, v]);
          else if (v instanceof CelOptional) {
            if (v.value !== undefined) m.entries.set(mapKey(k), [k, v.value]);
          } else err ??= new CelErr('no such overload');
        }
        add(MAP_CREATE_BASE);
        return err ?? m;
      }
      case 'comprehension':
        return fold(e);
      case 'call':
        return call(e);
    }
  };

  const fold = (e: Expr & { kind: 'comprehension' }): Result => {
    const range = ev(e.iterRange);
    if (range instanceof CelErr) return range;
    let pairs: [Value, Value][];
    if (Array.isArray(range)) pairs = range.map((v, i) => [BigInt(i), v]);
    else if (range instanceof CelMap) pairs = [...range.entries.values()].map(([k, v]) => [k, v]);
    else if (range instanceof CelObject) pairs = [...range.fields].map(([k, v]) => [k, v]);
    else return new CelErr('no such overload');
    const accu = ev(e.accuInit);
    if (accu instanceof CelErr) return accu;
    const accuScope = new Map<string, Result>([[e.accuVar, accu]]);
    scopes.push(accuScope);
    const iterScope = new Map<string, Result>();
    scopes.push(iterScope);
    for (const [k, v] of pairs) {
      if (e.iterVar2) {
        iterScope.set(e.iterVar, k);
        iterScope.set(e.iterVar2, v);
      } else {
        iterScope.set(e.iterVar, Array.isArray(range) ? v : k);
      }
      const c = ev(e.loopCondition);
      if (c instanceof CelErr) {
        accuScope.set(e.accuVar, c);
        break;
      }
      if (c === false) break;
      accuScope.set(e.accuVar, ev(e.loopStep));
    }
    scopes.pop();
    const result = ev(e.result);
    scopes.pop();
    return result;
  };

  const logical = (e: Expr & { kind: 'call' }, absorbing: boolean): Result => {
    const l = ev(e.args[0]!);
    if (l === absorbing) return absorbing;
    const r = ev(e.args[1]!);
    if (r === absorbing) return absorbing;
    if (typeof l === 'boolean' && typeof r === 'boolean') return !absorbing;
    if (l instanceof CelErr) return l;
    if (r instanceof CelErr) return r;
    return new CelErr('no such overload');
  };

  const call = (e: Expr & { kind: 'call' }): Result => {
    switch (e.fn) {
      case '_&&_':
        return logical(e, false);
      case '_||_':
        return logical(e, true);
      case '_?_:_': {
        const c = ev(e.args[0]!);
        if (c instanceof CelErr) return c;
        if (typeof c !== 'boolean') return new CelErr('no such overload');
        return ev(e.args[c ? 1 : 2]!);
      }
      case '_?._':
      case '_[?_]': {
        const o = ev(e.args[0]!);
        const k = ev(e.args[1]!);
        if (o instanceof CelErr) return o;
        if (k instanceof CelErr) return k;
        add(1);
        return optionalAccess(e.fn, o, k);
      }
      case '@not_strictly_false': {
        const v = ev(e.args[0]!);
        add(1);
        return v !== false;
      }
    }
    const qualified = checked.qualified.get(e.id);
    const target = qualified ? undefined : e.target;
    const args: Value[] = [];
    let err: CelErr | undefined;
    for (const x of target ? [target, ...e.args] : e.args) {
      const v = ev(x);
      if (v instanceof CelErr) err ??= v;
      else args.push(v);
    }
    const fn = qualified ?? e.fn;
    if (err) {
      add(1);
      return err;
    }
    const ids = checked.overloads.get(e.id) ?? [];
    const candidates = ids.map((id) => functions.get(id)!).filter(Boolean);
    const o = dispatch(candidates, args) ?? dispatch(functions.overloads(fn), args);
    if (!o || o.member !== !!target) {
      add(1);
      return new CelErr(`no such overload: ${fn}`);
    }
    let result: Result;
    try {
      result = o.impl(...args);
    } catch (x) {
      if (x instanceof CostLimitExceeded) throw x;
      result = new CelErr(x instanceof Error ? x.message : String(x));
    }
    add(callCost(fn, o.id, args, result) + (fn === '_[_]' && relative(e.args[0]!) ? 1 : 0));
    return result;
  };

  /** The value of a variable with a qualified name (`authorizer.requestResource`) that `e` names, unless a local shadows its root. */
  const qualifiedVar = (e: Expr): Result | undefined => {
    if (!qualifiedNames) return undefined;
    const qn = qualifiedName(e);
    const root = rootIdent(e);
    if (!qn || !root || !vars.has(qn) || scopes.some((s) => s.has(root))) return undefined;
    return vars.get(qn);
  };

  const typeIdent = (e: Expr): CelTypeValue | undefined => {
    const qn = qualifiedName(e);
    const root = rootIdent(e);
    if (!qn || !root || lookup(root) !== undefined || !TYPE_IDENTS.has(qn)) return undefined;
    return new CelTypeValue(qn);
  };

  const result = ev(checked.ast.expr);
  return { result, cost };
}

const qualifiedRefs = new WeakMap<Checked, boolean>();
/** Whether `checked` references a variable with a qualified name (`authorizer.requestResource`); kept per expression. */
function referencesQualified(checked: Checked): boolean {
  let q = qualifiedRefs.get(checked);
  if (q === undefined) qualifiedRefs.set(checked, (q = [...checked.references].some((r) => r.includes('.'))));
  return q;
}

/**
 * Whether a selection or index on `operand` starts a relative attribute in cel-go (the operand
 * is not itself an identifier, selection or index): that costs one more than a qualifier.
 */
function relative(operand: Expr): boolean {
  return !(operand.kind === 'ident' || operand.kind === 'select' || (operand.kind === 'call' && operand.fn === '_[_]'));
}

const constants = new WeakMap<Expr, Value | null>();

/** Whether a list or map literal holds only literals (cel-go's planner folds it into a constant: no cost). */
function constant(e: Expr): boolean {
  if (e.kind === 'const') return true;
  if (e.kind === 'list') return !e.optional && e.elems.every(constant);
  if (e.kind === 'map') return e.entries.every((x) => !x.optional && constant(x.key) && constant(x.value));
  return false;
}

function constantValue(e: Expr): Result {
  if (e.kind === 'const') return e.value;
  const cached = constants.get(e);
  if (cached !== undefined) return cached as Value;
  let v: Result;
  if (e.kind === 'list') v = e.elems.map((x) => constantValue(x) as Value);
  else if (e.kind === 'map') {
    const m = new CelMap();
    for (const x of e.entries) {
      const k = constantValue(x.key) as Value;
      if (m.has(k)) return new CelErr('Failed with repeated key');
      m.entries.set(mapKey(k), [k, constantValue(x.value) as Value]);
    }
    v = m;
  } else return new CelErr('not a constant');
  constants.set(e, v);
  return v;
}

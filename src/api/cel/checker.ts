/**
 * The CEL type checker (cel-go checker/checker.go): types every node, resolves each call to the
 * overloads that accept its argument types, and reports cel-go's errors (`undeclared reference to
 * 'x' (in container '')`, `undefined field 'x'`, `found no matching overload for '_+_' applied to
 * '(int, string)'`, `type 'int' does not support field selection`, `expected type 'int' but found
 * 'string'`). Homogeneous aggregate literals are required, as Kubernetes configures cel-go.
 */
import { type Ast, type Expr, type SourceError, qualifiedName, rootIdent } from './ast.js';
import { fieldName } from './decl-type.js';
import { literalErrors } from './literal-validators.js';
import { formatSignature, type FunctionRegistry } from './functions.js';
import { TYPE_IDENTS } from './stdlib.js';
import {
  BOOL,
  type Bindings,
  type CelType,
  DYN,
  ERROR,
  INT,
  formatType,
  isAssignable,
  listOf,
  mapOf,
  optionalOf,
  sameType,
  substitute,
  typeOf,
} from './types.js';
import { constType, finalize, free, freshen, hasFree } from './checker-types.js';
import { optionalAccessType } from './optional-syntax.js';

/** What a checked expression may reference: variables and functions. */
export interface CheckEnv {
  readonly vars: ReadonlyMap<string, CelType>;
  readonly functions: FunctionRegistry;
}

/** A type-checked expression. */
export interface Checked {
  readonly ast: Ast;
  /** The type of each node by id. */
  readonly types: Map<number, CelType>;
  /** The candidate overload ids of each call by id (qualified calls are rewritten to global). */
  readonly overloads: Map<number, string[]>;
  /** Calls written `pkg.fn(x)` whose receiver is a package name: their global function name. */
  readonly qualified: Map<number, string>;
  readonly outputType: CelType;
  /** Global variables the expression references. */
  readonly references: ReadonlySet<string>;
}

/** Type-check `ast` in `env`: the checked expression, or the errors found. */
export function check(ast: Ast, env: CheckEnv): Checked | SourceError[] {
  const types = new Map<number, CelType>();
  const overloads = new Map<number, string[]>();
  const qualified = new Map<number, string>();
  const references = new Set<string>();
  const errors: SourceError[] = [];
  const scopes: Map<string, CelType>[] = [];
  const exempt = new Set<number>();
  const at = (e: Expr) => ast.offsets.get(e.id) ?? 0;
  const err = (e: Expr, message: string): CelType => {
    errors.push({ offset: at(e), message });
    return ERROR;
  };
  const lookup = (name: string): CelType | undefined => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const t = scopes[i]!.get(name);
      if (t) return t;
    }
    return undefined;
  };

  const visit = (e: Expr): CelType => {
    const t = typeExpr(e);
    types.set(e.id, t);
    return t;
  };

  const typeExpr = (e: Expr): CelType => {
    switch (e.kind) {
      case 'const':
        return constType(e.value);
      case 'ident': {
        const local = lookup(e.name);
        if (local) return local;
        const v = env.vars.get(e.name);
        if (v) {
          references.add(e.name);
          return v;
        }
        const ti = TYPE_IDENTS.get(e.name);
        if (ti) return typeOf(ti);
        return err(e, `undeclared reference to '${e.name}' (in container '')`);
      }
      case 'select': {
        const qn = qualifiedName(e);
        const root = rootIdent(e);
        const ti = qn && root && !lookup(root) && !env.vars.has(root) ? TYPE_IDENTS.get(qn) : undefined;
        if (ti) return typeOf(ti);
        // A variable with a qualified name (`authorizer.requestResource`) wins over field selection.
        const qv = qn && root && !lookup(root) ? env.vars.get(qn) : undefined;
        if (qv) {
          references.add(qn!);
          return qv;
        }
        const ot = visit(e.operand);
        const t = selectType(ot, e.field);
        if (t === undefined) return err(e, `undefined field '${e.field}'`);
        if (t === null) return err(e, `type '${formatType(ot)}' does not support field selection`);
        return e.testOnly ? BOOL : t;
      }
      case 'call':
        return callType(e);
      case 'list': {
        const ts = e.elems.map(visit).map((t, i) => (e.optional?.includes(i) ? unwrapOptional(t) : t));
        if (exempt.has(e.id)) return listOf(ts.length && ts.every((t) => sameType(t, ts[0]!)) ? ts[0]! : DYN);
        return listOf(homogeneous(e.elems, ts) ?? free());
      }
      case 'map': {
        const ks = e.entries.map((en) => visit(en.key));
        const vs = e.entries.map((en) => (en.optional ? unwrapOptional(visit(en.value)) : visit(en.value)));
        const kt = homogeneous(
          e.entries.map((en) => en.key),
          ks,
        );
        const vt = homogeneous(
          e.entries.map((en) => en.value),
          vs,
        );
        return mapOf(kt ?? free(), vt ?? free());
      }
      case 'comprehension':
        return comprehensionType(e);
    }
  };

  /** The element type of a homogeneous literal, or undefined for an empty one. */
  const homogeneous = (elems: Expr[], ts: CelType[]): CelType | undefined => {
    let first: CelType | undefined;
    ts.forEach((t, i) => {
      if (t.kind === 'error') return;
      if (!first) first = t;
      else if (!sameType(first, t) && first.kind !== 'dyn' && t.kind !== 'dyn' && !isAssignable(first, t, new Map())) {
        err(elems[i]!, `expected type '${formatType(first)}' but found '${formatType(t)}'`);
      }
    });
    return first ?? (ts.length ? ERROR : undefined);
  };

  const callType = (e: Expr & { kind: 'call' }): CelType => {
    if (e.fn === '_?._' || e.fn === '_[?_]') {
      const [ot, kt] = e.args.map(visit) as [CelType, CelType];
      const key = e.args[1]!;
      const r = optionalAccessType(e.fn, ot, kt, key.kind === 'const' ? String(key.value) : undefined);
      return typeof r === 'string' ? err(e, r) : r;
    }
    let fn = e.fn;
    let target = e.target;
    // cel-go exempts the arguments of string.format from the homogeneous-literal check.
    if (fn === 'format' && e.args[0]) exempt.add(e.args[0].id);
    // `pkg.fn(x)` where `pkg` names no variable: a qualified global function (optional.of, sets.contains).
    if (target?.kind === 'ident' && !lookup(target.name) && !env.vars.has(target.name)) {
      const q = `${target.name}.${fn}`;
      if (env.functions.has(q)) {
        fn = q;
        target = undefined;
        qualified.set(e.id, q);
      }
    }
    const argTypes = [...(target ? [visit(target)] : []), ...e.args.map(visit)];
    const candidates = env.functions.overloads(fn).filter((o) => o.member === !!target);
    if (candidates.length === 0) {
      return err(e, `undeclared reference to '${fn}' (in container '')`);
    }
    if (argTypes.some((t) => t.kind === 'error')) return ERROR;
    const matched: { id: string; result: CelType }[] = [];
    for (const o of candidates) {
      if (o.params.length !== argTypes.length) continue;
      const b: Bindings = new Map();
      if (o.params.every((p, i) => isAssignable(p, argTypes[i]!, b))) {
        matched.push({ id: o.id, result: freshen(substitute(o.result, b)) });
      }
    }
    if (matched.length === 0) {
      return err(e, `found no matching overload for '${fn}' applied to '${formatSignature(argTypes, !!target)}'`);
    }
    overloads.set(
      e.id,
      matched.map((m) => m.id),
    );
    const first = matched[0]!.result;
    return matched.every((m) => sameType(m.result, first)) ? first : DYN;
  };

  const comprehensionType = (e: Expr & { kind: 'comprehension' }): CelType => {
    const rt = visit(e.iterRange);
    let it1: CelType;
    let it2: CelType | undefined;
    if (rt.kind === 'list') {
      [it1, it2] = e.iterVar2 ? [INT, rt.elem] : [rt.elem, undefined];
    } else if (rt.kind === 'map') {
      [it1, it2] = [rt.key, e.iterVar2 ? rt.value : undefined];
    } else if (rt.kind === 'dyn' || rt.kind === 'error') {
      [it1, it2] = [DYN, e.iterVar2 ? DYN : undefined];
    } else {
      err(
        e.iterRange,
        `expression of type '${formatType(rt)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
      );
      [it1, it2] = [DYN, DYN];
    }
    let accuType = visit(e.accuInit);
    const body = (): CelType => {
      scopes.push(new Map([[e.accuVar, accuType]]));
      scopes.push(new Map([[e.iterVar, it1], ...(e.iterVar2 ? [[e.iterVar2, it2!] as const] : [])]));
      const ct = visit(e.loopCondition);
      if (ct.kind !== 'error' && ct.kind !== 'dyn' && !sameType(ct, BOOL)) {
        err(e.loopCondition, `expected type 'bool' but found '${formatType(ct)}'`);
      }
      const st = visit(e.loopStep);
      scopes.pop();
      return st;
    };
    const errCount = errors.length;
    let stepType = body();
    if (hasFree(accuType) && !hasFree(stepType) && stepType.kind !== 'error') {
      errors.length = errCount;
      accuType = stepType;
      stepType = body();
    }
    if (stepType.kind !== 'error' && !isAssignable(accuType, stepType, new Map())) {
      err(e.loopStep, `expected type '${formatType(accuType)}' but found '${formatType(stepType)}'`);
    }
    const result = visit(e.result);
    scopes.pop();
    return result;
  };

  const unwrapOptional = (t: CelType): CelType =>
    t.kind === 'opaque' && t.name === 'optional_type' ? t.params[0]! : t.kind === 'dyn' ? DYN : ERROR;

  const selectType = (t: CelType, field: string): CelType | undefined | null => {
    switch (t.kind) {
      case 'object':
        return t.fields.get(fieldName(t.fields, field));
      case 'map':
        return t.value;
      case 'dyn':
      case 'error':
        return DYN;
      case 'opaque': {
        // A field of an optional value is itself optional (cel-go optional types).
        if (t.name !== 'optional_type') return null;
        const inner = selectType(t.params[0]!, field);
        return inner
          ? optionalOf(inner.kind === 'opaque' && inner.name === 'optional_type' ? inner.params[0]! : inner)
          : inner;
      }
      default:
        return null;
    }
  };

  const out = visit(ast.expr);
  if (!errors.length) errors.push(...literalErrors(ast));
  if (errors.length) return errors;
  for (const [id, t] of types) types.set(id, finalize(t));
  return { ast, types, overloads, qualified, outputType: finalize(out), references };
}

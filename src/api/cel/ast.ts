/**
 * The CEL syntax tree the checker, interpreter and cost estimator walk: @bufbuild/cel's parser
 * output (cel.expr.Expr, standard macros already expanded) converted to plain objects, with the
 * two-variable comprehension macros of cel-go's ext.TwoVarComprehensions (`all`, `exists`,
 * `existsOne` with two variables, `transformList`, `transformMap`, `transformMapEntry`) expanded
 * here as cel-go expands them. Offsets are moved to where cel-go's parser puts them (a call at its
 * `(` or operator), so error locations match.
 */
import { parse } from '@bufbuild/cel';
import { antlrWording } from './error-format.js';
import { lowerOptional, rewriteOptionalSyntax } from './optional-syntax.js';
import type { Ast, Expr, SourceError } from './syntax.js';
import { CelUint, type Value } from './values.js';

type PExpr = ReturnType<typeof parse>['expr'];

export type { Ast, Expr, SourceError } from './syntax.js';

/** Thrown by {@link parseCel} with cel-go-like messages. */
export class CelSyntaxError extends Error {
  constructor(readonly errors: SourceError[]) {
    super(errors.map((e) => e.message).join('\n'));
  }
}

const ACCU = '@result';

/** Parse `source`; throws CelSyntaxError. */
export function parseCel(source: string): Ast {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(rewriteOptionalSyntax(source));
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const m = /^<input>:(\d+):(\d+): (.*)$/s.exec(msg);
    const offset = m ? offsetOf(source, Number(m[1]), Number(m[2]) - 1) : 0;
    throw new CelSyntaxError([{ offset, message: `Syntax error: ${antlrWording(m ? m[3]! : msg, source, offset)}` }]);
  }
  const positions = parsed.sourceInfo?.positions ?? {};
  const offsets = new Map<number, number>();
  let nextId = 1;
  const errors: SourceError[] = [];
  const fresh = (offset: number): number => {
    const id = nextId++ + 1_000_000;
    offsets.set(id, offset);
    return id;
  };
  const conv = (e: PExpr): Expr => {
    const id = Number(e.id);
    nextId = Math.max(nextId, id + 1);
    offsets.set(id, positions[id.toString()] ?? 0);
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return { kind: 'const', id, value: constant(k.value.constantKind) };
      case 'identExpr':
        return { kind: 'ident', id, name: k.value.name };
      case 'selectExpr':
        return {
          kind: 'select',
          id,
          operand: conv(k.value.operand!),
          field: k.value.field,
          testOnly: k.value.testOnly,
        };
      case 'callExpr': {
        const args = k.value.args.map(conv);
        const target = k.value.target ? conv(k.value.target) : undefined;
        offsets.set(id, callOffset(source, offsets.get(id)!, k.value.function));
        const call: Expr = { kind: 'call', id, fn: k.value.function, target, args };
        return expandTwoVar(call, fresh, errors) ?? call;
      }
      case 'listExpr':
        return { kind: 'list', id, elems: k.value.elements.map(conv) };
      case 'structExpr':
        if (k.value.messageName) {
          errors.push({ offset: offsets.get(id)!, message: `undeclared reference to '${k.value.messageName}'` });
          return { kind: 'const', id, value: null };
        }
        return {
          kind: 'map',
          id,
          entries: k.value.entries.map((en) => ({
            key: en.keyKind.case === 'mapKey' ? conv(en.keyKind.value) : { kind: 'const', id: fresh(0), value: '' },
            value: conv(en.value!),
          })),
        };
      case 'comprehensionExpr': {
        const c = k.value;
        return {
          kind: 'comprehension',
          id,
          iterVar: c.iterVar,
          iterVar2: c.iterVar2 || undefined,
          iterRange: conv(c.iterRange!),
          accuVar: c.accuVar,
          accuInit: conv(c.accuInit!),
          loopCondition: conv(c.loopCondition!),
          loopStep: conv(c.loopStep!),
          result: conv(c.result!),
        };
      }
      default:
        errors.push({ offset: 0, message: 'unsupported expression' });
        return { kind: 'const', id, value: null };
    }
  };
  const expr = lowerOptional(conv(parsed.expr), () => fresh(0));
  if (errors.length) throw new CelSyntaxError(errors);
  return { expr, source, offsets };
}

type ConstantKind = Extract<PExpr['exprKind'], { case: 'constExpr' }>['value']['constantKind'];

function constant(c: ConstantKind): Value {
  switch (c.case) {
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
      return c.value;
    case 'int64Value':
      return BigInt(c.value);
    case 'uint64Value':
      return new CelUint(BigInt(c.value));
    case 'bytesValue':
      return c.value;
    default:
      return null;
  }
}

/** cel-go puts a named call at its `(`, an operator at its first character. */
function callOffset(src: string, off: number, fn: string): number {
  // Operators are named `_+_`, `_[_]`, `!_`, `@in`: only an identifier is a named call.
  if (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(fn)) {
    const i = src.indexOf('(', off);
    return i >= 0 ? i : off;
  }
  let i = off;
  while (i < src.length && /\s/.test(src[i]!)) i++;
  return i;
}

/** The character offset of a 1-based line and 0-based column. */
function offsetOf(src: string, line: number, col: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = src.indexOf('\n', off);
    if (nl < 0) break;
    off = nl + 1;
  }
  return off + col;
}

/** cel-go's two-variable comprehension macros (ext/comprehensions.go). */
function expandTwoVar(call: Expr & { kind: 'call' }, fresh: (o: number) => number, errors: SourceError[]) {
  const { fn, target, args } = call;
  const twoVar = ['all', 'exists', 'existsOne', 'exists_one', 'transformList', 'transformMap', 'transformMapEntry'];
  if (!target || !twoVar.includes(fn)) return undefined;
  const filtered = fn.startsWith('transform') && args.length === 4;
  if (args.length !== 3 && !filtered) return undefined;
  const [k, v] = args;
  const at = 0;
  if (k?.kind !== 'ident' || v?.kind !== 'ident') {
    errors.push({ offset: at, message: 'argument must be a simple name' });
    return undefined;
  }
  if (k.name === v.name) {
    errors.push({ offset: at, message: `duplicate variable name: ${k.name}` });
    return undefined;
  }
  if (k.name === ACCU || v.name === ACCU) {
    errors.push({ offset: at, message: `iteration variable overwrites accumulator variable` });
    return undefined;
  }
  const id = (): number => fresh(at);
  const accu = (): Expr => ({ kind: 'ident', id: id(), name: ACCU });
  const call2 = (f: string, ...a: Expr[]): Expr => ({ kind: 'call', id: id(), fn: f, args: a });
  const bool = (b: boolean): Expr => ({ kind: 'const', id: id(), value: b });
  const pred = args[args.length - 1]!;
  let init: Expr;
  let cond: Expr = bool(true);
  let step: Expr;
  let result: Expr = accu();
  switch (fn) {
    case 'all':
      init = bool(true);
      cond = call2('@not_strictly_false', accu());
      step = call2('_&&_', accu(), pred);
      break;
    case 'exists':
      init = bool(false);
      cond = call2('@not_strictly_false', call2('!_', accu()));
      step = call2('_||_', accu(), pred);
      break;
    case 'existsOne':
    case 'exists_one':
      init = { kind: 'const', id: id(), value: 0n };
      step = call2('_?_:_', pred, call2('_+_', accu(), { kind: 'const', id: id(), value: 1n }), accu());
      result = call2('_==_', accu(), { kind: 'const', id: id(), value: 1n });
      break;
    case 'transformList':
      init = { kind: 'list', id: id(), elems: [] };
      step = call2('_+_', accu(), { kind: 'list', id: id(), elems: [pred] });
      break;
    case 'transformMap':
      init = { kind: 'map', id: id(), entries: [] };
      step = call2('cel.@mapInsert', accu(), { kind: 'ident', id: id(), name: k.name }, pred);
      break;
    default:
      init = { kind: 'map', id: id(), entries: [] };
      step = call2('cel.@mapInsert', accu(), pred);
  }
  if (filtered) step = call2('_?_:_', args[2]!, step, accu());
  return {
    kind: 'comprehension' as const,
    id: call.id,
    iterVar: k.name,
    iterVar2: v.name,
    iterRange: target,
    accuVar: ACCU,
    accuInit: init,
    loopCondition: cond,
    loopStep: step,
    result,
  };
}

/** The dotted name an identifier or field-selection chain spells (`google.protobuf.Duration`). */
export function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const q = qualifiedName(e.operand);
    return q === undefined ? undefined : `${q}.${e.field}`;
  }
  return undefined;
}

/** The identifier at the root of a selection chain. */
export function rootIdent(e: Expr): string | undefined {
  return e.kind === 'ident' ? e.name : e.kind === 'select' ? rootIdent(e.operand) : undefined;
}

/**
 * CEL's optional syntax (cel-go parser with `cel.OptionalTypes()`, Kubernetes 1.28+): `a.?b`,
 * `a[?k]`, `[?x, y]`, `{?k: v}` and the `optMap`/`optFlatMap` macros. @bufbuild/cel's parser does
 * not read them, so the source is rewritten first into calls it reads (`a.__opt__b`,
 * `a[__optidx__(k)]`, `__optelem__(x)`, `__optkey__(k)`) and the tree is lowered back to cel-go's
 * form (`_?._`, `_[?_]`, optional list and map entries). Offsets after a rewritten spot shift by
 * the inserted text (error columns there may be off by a few characters).
 */
import type { Expr } from './syntax.js';
import { type CelType, DYN, optionalOf } from './types.js';
import { CelErr, CelMap, CelObject, CelOptional, type Result, type Value, celEquals } from './values.js';
import { fieldName } from './decl-type.js';

const ID = /[A-Za-z0-9_)\]'"]/;

/** Rewrite optional syntax into plain CEL calls; other text unchanged. */
export function rewriteOptionalSyntax(src: string): string {
  if (!src.includes('?')) return src;
  const out: string[] = [];
  const kinds: string[] = []; // '[' index, 'L' list, '{' map, '(' paren
  const elemClose: (string | undefined)[] = [];
  let i = 0;
  const prevSignificant = () => {
    const s = out.join('').trimEnd();
    return s[s.length - 1] ?? '';
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      let j = i + q.length;
      while (j < src.length && !src.startsWith(q, j)) j += src[j] === '\\' ? 2 : 1;
      out.push(src.slice(i, j + q.length));
      i = j + q.length;
      continue;
    }
    if (c === '.' && src[i + 1] === '?') {
      out.push('.__opt__');
      i += 2;
      continue;
    }
    if (c === '[' || c === '{' || c === '(') {
      const isIndex = c === '[' && ID.test(prevSignificant());
      kinds.push(c === '[' ? (isIndex ? '[' : 'L') : c);
      out.push(c);
      i++;
      let j = i;
      while (/\s/.test(src[j] ?? '')) j++;
      if (src[j] === '?' && c !== '(') {
        out.push(isIndex ? '__optidx__(' : c === '{' ? '__optkey__(' : '__optelem__(');
        elemClose.push(')');
        i = j + 1;
      } else elemClose.push(undefined);
      continue;
    }
    if ((c === ',' || c === ':') && kinds.length) {
      const k = kinds[kinds.length - 1]!;
      const closeAt = k === '{' ? ':' : ',';
      if ((k === 'L' || k === '{') && c === closeAt && elemClose[elemClose.length - 1]) {
        out.push(elemClose[elemClose.length - 1]!);
        elemClose[elemClose.length - 1] = undefined;
      }
      out.push(c);
      i++;
      if (c === ',' && (k === 'L' || k === '{')) {
        let j = i;
        while (/\s/.test(src[j] ?? '')) j++;
        if (src[j] === '?') {
          out.push(src.slice(i, j), k === '{' ? '__optkey__(' : '__optelem__(');
          elemClose[elemClose.length - 1] = ')';
          i = j + 1;
        }
      }
      continue;
    }
    if ((c === ']' || c === '}' || c === ')') && kinds.length) {
      const close = elemClose.pop();
      if (close) out.push(close);
      kinds.pop();
    }
    out.push(c);
    i++;
  }
  return out.join('');
}

/** The result type of `_?._` / `_[?_]` on `operand` (unwrapping an optional operand), or an error text. */
export function optionalAccessType(fn: string, operand: CelType, key: CelType, field?: string): CelType | string {
  const t = operand.kind === 'opaque' && operand.name === 'optional_type' ? operand.params[0]! : operand;
  if (t.kind === 'dyn' || t.kind === 'error') return optionalOf(DYN);
  if (fn === '_?._') {
    if (t.kind === 'object') {
      const f = t.fields.get(fieldName(t.fields, field!));
      return f ? optionalOf(f) : `undefined field '${field}'`;
    }
    if (t.kind === 'map') return optionalOf(t.value);
    return `type '${t.kind}' does not support field selection`;
  }
  if (t.kind === 'list') return optionalOf(t.elem);
  if (t.kind === 'map') return optionalOf(t.value);
  void key;
  return 'no matching overload';
}

/** Run-time `_?._` and `_[?_]`. */
export function optionalAccess(fn: string, operand: Value, key: Value): Result {
  let o = operand;
  if (o instanceof CelOptional) {
    if (o.value === undefined) return o;
    o = o.value;
  }
  if (o instanceof CelObject) {
    const v = typeof key === 'string' ? o.fields.get(fieldName(o.fields, key)) : undefined;
    return new CelOptional(v);
  }
  if (o instanceof CelMap) return new CelOptional(o.get(key));
  if (Array.isArray(o) && fn === '_[?_]') {
    const i = typeof key === 'bigint' ? key : typeof key === 'number' && Number.isInteger(key) ? BigInt(key) : -1n;
    return new CelOptional(i >= 0n && i < BigInt(o.length) ? o[Number(i)] : undefined);
  }
  void celEquals;
  return new CelErr('no such overload');
}

/** Lower the rewritten calls back into cel-go's optional forms, and expand `optMap`/`optFlatMap`. */
export function lowerOptional(e: Expr, fresh: () => number): Expr {
  const low = (x: Expr): Expr => lowerOptional(x, fresh);
  switch (e.kind) {
    case 'select': {
      const operand = low(e.operand);
      if (e.field.startsWith('__opt__') && !e.testOnly) {
        const field = e.field.slice('__opt__'.length);
        return { kind: 'call', id: e.id, fn: '_?._', args: [operand, { kind: 'const', id: fresh(), value: field }] };
      }
      return { ...e, operand };
    }
    case 'call': {
      const args = e.args.map(low);
      const target = e.target ? low(e.target) : undefined;
      const inner = args[1];
      if (e.fn === '_[_]' && inner?.kind === 'call' && inner.fn === '__optidx__') {
        return { kind: 'call', id: e.id, fn: '_[?_]', args: [args[0]!, inner.args[0]!] };
      }
      if ((e.fn === 'optMap' || e.fn === 'optFlatMap') && target && args.length === 2 && args[0]!.kind === 'ident') {
        const v = args[0].name;
        const call = (fn: string, t: Expr | undefined, ...a: Expr[]): Expr => ({
          kind: 'call',
          id: fresh(),
          fn,
          target: t,
          args: a,
        });
        const bind: Expr = {
          kind: 'comprehension',
          id: fresh(),
          iterVar: '#unused',
          iterRange: { kind: 'list', id: fresh(), elems: [] },
          accuVar: v,
          accuInit: call('value', target),
          loopCondition: { kind: 'const', id: fresh(), value: false },
          loopStep: { kind: 'ident', id: fresh(), name: v },
          result: args[1]!,
        };
        const some = e.fn === 'optMap' ? call('optional.of', undefined, bind) : bind;
        return {
          kind: 'call',
          id: e.id,
          fn: '_?_:_',
          args: [call('hasValue', target), some, call('optional.none', undefined)],
        };
      }
      return { ...e, args, target };
    }
    case 'list': {
      const optional: number[] = [];
      const elems = e.elems.map((x, i) => {
        const l = low(x);
        if (l.kind === 'call' && l.fn === '__optelem__' && l.args.length === 1) {
          optional.push(i);
          return l.args[0]!;
        }
        return l;
      });
      return optional.length ? { ...e, elems, optional } : { ...e, elems };
    }
    case 'map':
      return {
        ...e,
        entries: e.entries.map((en) => {
          const key = low(en.key);
          const value = low(en.value);
          if (key.kind === 'call' && key.fn === '__optkey__' && key.args.length === 1)
            return { key: key.args[0]!, value, optional: true };
          return { key, value };
        }),
      };
    case 'comprehension':
      return {
        ...e,
        iterRange: low(e.iterRange),
        accuInit: low(e.accuInit),
        loopCondition: low(e.loopCondition),
        loopStep: low(e.loopStep),
        result: low(e.result),
      };
    default:
      return e;
  }
}

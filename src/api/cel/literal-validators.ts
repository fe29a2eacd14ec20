/**
 * Checks of literal arguments done when a rule is compiled, as Kubernetes configures cel-go
 * (1.29+ ASTValidators ValidateDurationLiterals, ValidateTimestampLiterals, ValidateRegexLiterals:
 * `invalid duration argument`, `invalid timestamp`, `invalid matches argument`), and the regex
 * library's precompilation of constant patterns at program creation (`program instantiation
 * failed: error parsing regexp: ...`).
 */
import { parseGoDurationNanos } from '../go-duration.js';
import type { Ast, Expr, SourceError } from './ast.js';
import { compileRegex } from './regex.js';
import { parseTimestamp } from './to-value.js';
import { CelErr } from './values.js';

const MIN_TS_SECONDS = -62135596800n;
const MAX_TS_SECONDS = 253402300799n;

function each(e: Expr, f: (e: Expr) => void): void {
  f(e);
  switch (e.kind) {
    case 'select':
      return each(e.operand, f);
    case 'call':
      if (e.target) each(e.target, f);
      return e.args.forEach((a) => each(a, f));
    case 'list':
      return e.elems.forEach((x) => each(x, f));
    case 'map':
      return e.entries.forEach((x) => (each(x.key, f), each(x.value, f)));
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach((x) => each(x, f));
  }
}

const constArg = (e: Expr | undefined) => (e?.kind === 'const' ? e.value : undefined);

/** The literal errors of `ast`. */
export function literalErrors(ast: Ast): SourceError[] {
  const errs: SourceError[] = [];
  const at = (e: Expr, message: string) => errs.push({ offset: ast.offsets.get(e.id) ?? 0, message });
  each(ast.expr, (e) => {
    if (e.kind !== 'call') return;
    if (e.fn === 'duration' && !e.target && e.args.length === 1 && typeof constArg(e.args[0]) === 'string') {
      try {
        parseGoDurationNanos(constArg(e.args[0]) as string);
      } catch {
        at(e.args[0]!, 'invalid duration argument');
      }
    }
    if (e.fn === 'timestamp' && !e.target && e.args.length === 1) {
      const v = constArg(e.args[0]);
      let ok = true;
      if (typeof v === 'string') {
        const t = parseTimestamp(v);
        ok =
          !(t instanceof CelErr) &&
          /T/.test(v) &&
          t.ns >= MIN_TS_SECONDS * 1_000_000_000n &&
          t.ns <= MAX_TS_SECONDS * 1_000_000_000n + 999_999_999n;
      } else if (typeof v === 'bigint') ok = v >= MIN_TS_SECONDS && v <= MAX_TS_SECONDS;
      if (!ok) at(e.args[0]!, 'invalid timestamp');
    }
    if (e.fn === 'matches') {
      const re = e.target ? e.args[0] : e.args[1];
      if (typeof constArg(re) === 'string' && compileRegex(constArg(re) as string) instanceof CelErr) {
        at(re!, 'invalid matches argument');
      }
    }
  });
  return errs;
}

/** The error creating the program: a constant pattern of find/findAll that does not compile. */
export function instantiationError(ast: Ast): string | undefined {
  let out: string | undefined;
  each(ast.expr, (e) => {
    if (out || e.kind !== 'call' || !e.target || (e.fn !== 'find' && e.fn !== 'findAll')) return;
    const re = constArg(e.args[0]);
    if (typeof re !== 'string') return;
    const r = compileRegex(re);
    if (r instanceof CelErr) out = `program instantiation failed: ${r.message}`;
  });
  return out;
}

/**
 * `string.format(list)` of cel-go's strings extension (ext/formatting.go as vendored by
 * Kubernetes 1.33, locale en_US): `%s`, `%d`, `%f` / `%.Nf`, `%e` (written `3.140000×10⁰⁰` as
 * that version's locale printer does), `%b`, `%o`, `%x`, `%X`, `%%`. Errors as cel-go words them
 * for the common cases.
 */
import { goFloat } from '../crd-schema/go-format.js';
import { type Overload, member } from './functions.js';
import { DYN, STRING, listOf } from './types.js';
import {
  CelDuration,
  CelErr,
  CelMap,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type Result,
  type Value,
  typeName,
} from './values.js';

const SUP: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '-': '⁻',
};

function asString(v: Value): string | CelErr {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof CelUint) return String(v.v);
  if (typeof v === 'number') return goFloat(v);
  if (v === null) return 'null';
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof CelDuration) return `${Number(v.ns) / 1e9}s`;
  if (v instanceof CelTimestamp) {
    const iso = new Date(Number(v.ns / 1_000_000n)).toISOString();
    return iso.replace(/\.000Z$/, 'Z');
  }
  if (v instanceof CelTypeValue) return v.name;
  if (Array.isArray(v)) {
    const parts = v.map(asString);
    const bad = parts.find((p) => p instanceof CelErr);
    return bad ?? `[${parts.join(', ')}]`;
  }
  if (v instanceof CelMap) {
    const parts = [...v.entries.values()].map(([k, x]) => `${asString(k) as string}: ${asString(x) as string}`).sort();
    return `{${parts.join(', ')}}`;
  }
  return new CelErr(
    `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`,
  );
}

function integer(v: Value, verb: string): bigint | CelErr {
  if (typeof v === 'bigint') return v;
  if (v instanceof CelUint) return v.v;
  const what = verb === 'd' ? 'decimal' : verb === 'b' ? 'binary' : verb === 'o' ? 'octal' : 'hex';
  return new CelErr(`error during formatting: ${what} clause can only be used on integers, was given ${typeName(v)}`);
}

function fixed(v: Value, prec: number, sci: boolean): string | CelErr {
  const n =
    typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof CelUint ? Number(v.v) : undefined;
  if (n === undefined) {
    return new CelErr(
      `error during formatting: ${sci ? 'scientific' : 'fixed-point'} clause can only be used on doubles, was given ${typeName(v)}`,
    );
  }
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (!sci) return n.toFixed(prec);
  const [m, e] = n.toExponential(prec).split('e') as [string, string];
  const exp = Number(e);
  const digits = String(Math.abs(exp)).padStart(2, '0');
  return `${m}×10${exp < 0 ? SUP['-'] : ''}${[...digits].map((d) => SUP[d]).join('')}`;
}

/** Format `fmt` with `args`. */
export function format(fmt: string, args: readonly Value[]): Result {
  let out = '';
  let argi = 0;
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^(?:\.(\d+))?([sdfeboxX%])/.exec(fmt.slice(i + 1));
    if (!m)
      return new CelErr(`could not parse formatting clause: unrecognized formatting clause "${fmt[i + 1] ?? ''}"`);
    i += m[0].length;
    const verb = m[2]!;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) return new CelErr(`index ${argi} out of range`);
    const v = args[argi++]!;
    let piece: string | bigint | CelErr;
    switch (verb) {
      case 's':
        piece = asString(v);
        break;
      case 'f':
      case 'e':
        piece = fixed(v, m[1] !== undefined ? Number(m[1]) : 6, verb === 'e');
        break;
      default: {
        if (verb === 'x' || verb === 'X') {
          if (typeof v === 'string' || v instanceof Uint8Array) {
            piece = Buffer.from(typeof v === 'string' ? Buffer.from(v) : v).toString('hex');
            if (verb === 'X') piece = piece.toUpperCase();
            break;
          }
        }
        const n = integer(v, verb);
        if (n instanceof CelErr) return n;
        const radix = verb === 'd' ? 10 : verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
        piece = n.toString(radix);
        if (verb === 'X') piece = piece.toUpperCase();
      }
    }
    if (piece instanceof CelErr) return piece;
    out += String(piece);
  }
  return out;
}

/** The format overload. */
export const STRING_FORMAT: readonly Overload[] = [
  member('format', 'string_format', [STRING, listOf(DYN)], STRING, (f: string, args: Value[]) => format(f, args)),
];

/**
 * The few Go formatting rules that server-side apply's wire texts depend on, so that field
 * paths, FieldsV1 keys and conflict messages read byte for byte as upstream writes them:
 * `strconv.Quote` (`%q`), `%v` of a number, `unicode.IsPrint`, encoding/json of a value (HTML
 * characters escaped), and Go's byte-wise string order. Pure; no I/O.
 */
import { isRecord } from '../json.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrintable(ch: string): boolean {
  return PRINTABLE.test(ch);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Go's `strconv.Quote` / `fmt.Sprintf("%q", s)`: `"a\"b"`, `"\x00"`, `"\u00a0"`. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (isPrintable(ch)) out += ch;
    else if (SHORT_ESCAPES[ch]) out += SHORT_ESCAPES[ch];
    else {
      const cp = ch.codePointAt(0)!;
      if (cp >= 0xd800 && cp < 0xe000) out += '\\ufffd';
      else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/**
 * `%v` of a JSON number as Go prints it once decoded into an unstructured object: integers as
 * int64 (`80`), other numbers as float64 in shortest `%g` form (`1.5`, `1.2345675e+06`, `1e-05`).
 */
export function goNumber(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * Compact JSON as Go's encoding/json (and json-iterator's standard-library mode) writes a
 * decoded value: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped inside strings.
 */
export function goJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  if (isRecord(value)) {
    const m = value;
    const keys = Object.keys(m).sort(compareStrings);
    return `{${keys.map((k) => `${goString(k)}:${goJson(m[k])}`).join(',')}}`;
  }
  if (typeof value === 'string') return goString(value);
  return JSON.stringify(value ?? null);
}

/** A JSON string literal with Go's HTML-safe escaping. */
export function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => HTML_ESCAPES[c]);
}

/** Go's `strings.Compare`: byte-wise order of the UTF-8 encodings, i.e. code point order. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) < codePointRank(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

/** UTF-16 units reordered so that surrogates (code points above U+FFFF) sort after U+E000-U+FFFF. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit < 0xe000) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

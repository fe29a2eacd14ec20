/**
 * Go's printing of decoded JSON values, as upstream's messages show them: `%q` strings
 * (strconv.Quote), `%v` numbers (strconv 'g' shortest: `20`, `1.5`, `1e+21`), `%#v` of maps and
 * slices (`map[string]interface {}{"a":1}`), and the 1.33 field.Error body
 * (apimachinery pkg/util/validation/field/errors.go ErrorBody). JSON numbers are JS numbers:
 * an integral one stands for Go's int64 (as upstream decodes `20`), any other for float64.
 */
import type { FieldError } from '../validation/field-errors.js';

/** strconv.Quote: printable runes kept, `\a\b\f\n\r\t\v`, others as `\xNN`, `\uNNNN` or `\UNNNNNNNN`. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c >= 0xd800 && c <= 0xdfff)
      out += '\uFFFD'; // decoding made it U+FFFD
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x80 && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(ch)) {
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/**
 * Go's `%v` of a float64 (strconv 'g' with the shortest digits): an exponent (at least two
 * digits) when the decimal exponent is below -4 or at least 6, e.g. `1e+06`, `1.5`, `1e-05`.
 */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/** A number as `%v` prints it: int64 for integral values, float64 otherwise. */
export function goNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : goFloat(n);
}

/** Go's `%#v` of a decoded JSON value (the fallback of field.Error for maps and slices). */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]interface {}{${entries.map(([k, x]) => `${goQuote(k)}:${goSharpV(x)}`).join(', ')}}`;
}

/** The bad value as the 1.33 field.Error body prints it: nil as `"null"`, `%q`, `%v`, else `%#v`. */
export function goBadValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goSharpV(v);
}

/** Go's json.Marshal of a decoded JSON value: map keys sorted, `<>&` escaped. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? goNumber(v) : JSON.stringify(v);
  if (typeof v !== 'object') return escapeHtml(JSON.stringify(v));
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${escapeHtml(JSON.stringify(k))}:${goJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

const escapeHtml = (s: string): string =>
  s.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** `Invalid value: <v>: detail` (reason FieldValueInvalid). */
export function goInvalid(field: string, value: unknown, detail: string): FieldError {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${goBadValue(value)}${detail ? `: ${detail}` : ''}`,
  };
}

/** `Duplicate value: <v>` (reason FieldValueDuplicate). */
export function goDuplicate(field: string, value: unknown): FieldError {
  return { reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${goBadValue(value)}` };
}

/** Upstream field.Path rendering: `a.b`, `a[k]` (Key), `a[0]` (Index); the nil path is `<nil>`. */
export const fieldPath = {
  child: (parent: string, name: string): string => (parent ? `${parent}.${name}` : name),
  key: (parent: string, key: string): string => `${parent}[${key}]`,
  index: (parent: string, i: number): string => `${parent}[${i}]`,
};

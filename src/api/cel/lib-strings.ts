/**
 * cel-go's strings extension, version 2 (ext/strings.go; Kubernetes 1.29+): charAt, indexOf,
 * lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join and strings.quote,
 * all on Unicode code points as cel-go does. Not here: `format` and `reverse` (docs/cel.md).
 */
import { type Overload, global, member } from './functions.js';
import { INT, STRING, listOf } from './types.js';
import { CelErr, type Result } from './values.js';

const cps = (s: string): string[] => [...s];
const outOfRange = (i: bigint): CelErr => new CelErr(`index out of range: ${i}`);

function indexOf(s: string, sub: string, from: bigint): Result {
  const c = cps(s);
  if (from < 0n || from > BigInt(c.length)) return outOfRange(from);
  const sc = cps(sub);
  for (let i = Number(from); i + sc.length <= c.length; i++) {
    if (sc.every((ch, j) => c[i + j] === ch)) return BigInt(i);
  }
  return -1n;
}

function lastIndexOf(s: string, sub: string, from?: bigint): Result {
  const c = cps(s);
  const sc = cps(sub);
  const start = from ?? BigInt(c.length);
  if (from !== undefined && (from < 0n || from > BigInt(c.length))) return outOfRange(from);
  if (sc.length === 0) return start;
  for (let i = Math.min(Number(start), c.length - sc.length); i >= 0; i--) {
    if (sc.every((ch, j) => c[i + j] === ch)) return BigInt(i);
  }
  return -1n;
}

function substring(s: string, start: bigint, end?: bigint): Result {
  const c = cps(s);
  const e = end ?? BigInt(c.length);
  if (start < 0n || start > BigInt(c.length)) return outOfRange(start);
  if (e < 0n || e > BigInt(c.length)) return outOfRange(e);
  if (start > e) return new CelErr(`invalid substring range. start: ${start}, end: ${e}`);
  return c.slice(Number(start), Number(e)).join('');
}

function replace(s: string, from: string, to: string, n = -1n): string {
  if (n === 0n) return s;
  if (n < 0n)
    return from === ''
      ? to +
          cps(s)
            .map((c) => c + to)
            .join('')
      : s.split(from).join(to);
  let out = '';
  let rest = s;
  let count = 0n;
  while (count < n) {
    const i = from === '' ? (count === 0n ? 0 : rest.length ? 1 : -1) : rest.indexOf(from);
    if (i < 0) break;
    out += rest.slice(0, i) + to;
    rest = rest.slice(i + from.length);
    count++;
  }
  return out + rest;
}

function split(s: string, sep: string, n = -1n): Result {
  if (n === 0n) return [];
  if (sep === '') {
    const c = cps(s);
    if (n < 0n || n >= BigInt(c.length)) return c;
    return [...c.slice(0, Number(n) - 1), c.slice(Number(n) - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0n || n >= BigInt(parts.length)) return parts;
  return [...parts.slice(0, Number(n) - 1), parts.slice(Number(n) - 1).join(sep)];
}

/** Go's strings.TrimSpace (Unicode White_Space). */
const trim = (s: string): string => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');

/** cel-go's strings.quote: a double-quoted CEL string literal. */
export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07':
        out += '\\a';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\v':
        out += '\\v';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '"':
        out += '\\"';
        break;
      default:
        out += ch;
    }
  }
  return `${out}"`;
}

const ascii = (s: string, up: boolean): string =>
  s.replace(up ? /[a-z]/g : /[A-Z]/g, (c) => (up ? c.toUpperCase() : c.toLowerCase()));

/** The strings extension's overloads. */
export const STRINGS: readonly Overload[] = [
  member('charAt', 'string_char_at_int', [STRING, INT], STRING, (s: string, i: bigint) => {
    const c = cps(s);
    if (i < 0n || i > BigInt(c.length)) return outOfRange(i);
    return c[Number(i)] ?? '';
  }),
  member('indexOf', 'string_index_of_string', [STRING, STRING], INT, (s: string, x: string) => indexOf(s, x, 0n)),
  member('indexOf', 'string_index_of_string_int', [STRING, STRING, INT], INT, indexOf),
  member('lastIndexOf', 'string_last_index_of_string', [STRING, STRING], INT, (s: string, x: string) =>
    lastIndexOf(s, x),
  ),
  member('lastIndexOf', 'string_last_index_of_string_int', [STRING, STRING, INT], INT, lastIndexOf),
  member('lowerAscii', 'string_lower_ascii', [STRING], STRING, (s: string) => ascii(s, false)),
  member('upperAscii', 'string_upper_ascii', [STRING], STRING, (s: string) => ascii(s, true)),
  member(
    'replace',
    'string_replace_string_string',
    [STRING, STRING, STRING],
    STRING,
    (s: string, a: string, b: string) => replace(s, a, b),
  ),
  member('replace', 'string_replace_string_string_int', [STRING, STRING, STRING, INT], STRING, replace),
  member('split', 'string_split_string', [STRING, STRING], listOf(STRING), (s: string, x: string) => split(s, x)),
  member('split', 'string_split_string_int', [STRING, STRING, INT], listOf(STRING), split),
  member('substring', 'string_substring_int', [STRING, INT], STRING, (s: string, i: bigint) => substring(s, i)),
  member('substring', 'string_substring_int_int', [STRING, INT, INT], STRING, substring),
  member('trim', 'string_trim', [STRING], STRING, trim),
  member('join', 'list_join', [listOf(STRING)], STRING, (l: string[]) => l.join('')),
  member('join', 'list_join_string', [listOf(STRING), STRING], STRING, (l: string[], sep: string) => l.join(sep)),
  global('strings.quote', 'strings_quote', [STRING], STRING, quote),
];

/**
 * The Kubernetes regex library (k8s.io/apiserver pkg/cel/library/regex.go): `find(re)` returns
 * the first match or `""`, `findAll(re)` and `findAll(re, n)` the list of matches (n < 0: all).
 */
import { type Overload, member } from './functions.js';
import { compileRegex } from './regex.js';
import { INT, STRING, listOf } from './types.js';
import { CelErr, type Result } from './values.js';

function findAll(s: string, re: string, n = -1n): Result {
  const r = compileRegex(re);
  if (r instanceof CelErr) return r;
  if (n === 0n) return [];
  const m = r.matcher(s);
  const out: string[] = [];
  while ((n < 0n || BigInt(out.length) < n) && m.find()) out.push(m.group() ?? '');
  return out;
}

/** The regex library's overloads. */
export const REGEX: readonly Overload[] = [
  member('find', 'string_find_string', [STRING, STRING], STRING, (s: string, re: string) => {
    const r = compileRegex(re);
    if (r instanceof CelErr) return r;
    const m = r.matcher(s);
    return m.find() ? (m.group() ?? '') : '';
  }),
  member('findAll', 'string_find_all_string', [STRING, STRING], listOf(STRING), (s: string, re: string) =>
    findAll(s, re),
  ),
  member('findAll', 'string_find_all_string_int', [STRING, STRING, INT], listOf(STRING), findAll),
];

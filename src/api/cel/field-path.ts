/**
 * A rule's `fieldPath` checked against the schema and normalized, as upstream's ValidFieldPath
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go): `.a.b`, `.a['b.c']` (single-
 * quoted keys with `\\'` escapes) through properties or additionalProperties. Returns the field
 * path in upstream's form (`a.b`, `a[b.c]` for map keys) or an error message.
 */
import { fieldPath as fp } from '../crd-schema/go-format.js';
import type { Structural } from '../crd-schema/types.js';

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

function tokens(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++;
      out.push(s.slice(i, j + 1));
      i = j + 1;
    } else if ('.[]'.includes(s[i]!)) {
      out.push(s[i++]!);
    } else {
      let j = i;
      while (j < s.length && !'.[]'.includes(s[j]!)) j++;
      out.push(s.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** The result of {@link validFieldPath}. */
export type FieldPathResult = { path: string; schema: Structural } | { error: string };

/** Validate `jsonPath` against `schema` (upstream ValidFieldPath). */
export function validFieldPath(jsonPath: string, schema: Structural, allowArrayNotation = true): FieldPathResult {
  let path = '';
  let s: Structural | undefined = schema;
  const step = (name: string): string | undefined => {
    if (s?.properties) {
      path = fp.child(path, name);
      s = s.properties[name];
      return s ? undefined : 'does not refer to a valid field';
    }
    if (s?.generic?.additionalProperties) {
      path = fp.key(path, name);
      s = s.generic.additionalProperties.structural;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const q = toks[++i];
      if (q === undefined) return { error: 'unexpected end of JSON path' };
      if (q.length < 2 || !q.startsWith("'") || !q.endsWith("'")) {
        return { error: `expected single quoted string but got ${q}` };
      }
      let bad = '';
      const key = q.slice(1, -1).replace(/\\./g, (m) => {
        const r = ESCAPES[m[1]!];
        if (r === undefined) bad ||= m;
        return r ?? '';
      });
      if (bad) return { error: `invalid string literal: invalid escape char ${bad}` };
      const e = step(key);
      if (e) return { error: e };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (t === '.') {
      const name = toks[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const e = step(name);
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${t}` };
    }
  }
  return { path, schema: s ?? {} };
}

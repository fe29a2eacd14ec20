/**
 * Field paths into a structural schema (k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel
 * validation.go ValidFieldPath, 1.33), as x-kubernetes-validations' `fieldPath` and a version's
 * `selectableFields` use them: `.spec.a`, `.spec['b.c']` (single-quoted, with `\'` and `\\`
 * escapes), map keys through `additionalProperties`. Returns the path as upstream prints it
 * (`spec.map[key]`), its first segment and the schema it reaches, or upstream's error text.
 */
import type { Structural } from './structural.js';

/** A path found: its text, its first segment and the schema at its end (absent past `additionalProperties: true`). */
export interface FoundPath {
  readonly path: string;
  readonly root: string;
  readonly schema: Structural | undefined;
}

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

/** unescapeSingleQuote. */
function unescape(s: string): string {
  return s.replace(/\\[\s\S]/g, (m) => {
    const out = ESCAPES[m[1]];
    if (out === undefined) throw new Error(`invalid string literal: invalid escape char ${m}`);
    return out;
  });
}

/** The scanner's tokens: `.`, `[`, `]`, single-quoted strings and the text between delimiters. */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      if (j >= path.length) {
        out.push(path.slice(i));
        break;
      }
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else if ('.[]'.includes(path[i])) {
      out.push(path[i++]);
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j])) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/**
 * ValidFieldPath: follows `jsonPath` through `schema`. Throws Error with upstream's message
 * (`does not refer to a valid field`, `expected [ or . but got: x`, ...) when it does not
 * name a field; `allowArrayNotation` false refuses `[...]` (selectable fields).
 */
export function validFieldPath(jsonPath: string, schema: Structural, allowArrayNotation = true): FoundPath {
  let text = '';
  let root: string | undefined;
  let at: Structural | undefined = schema;
  const step = (name: string) => {
    if (!at) throw new Error('does not refer to a valid field');
    if (at.properties) {
      const next: Structural | undefined = at.properties[name];
      if (!next) throw new Error('does not refer to a valid field');
      text = text ? `${text}.${name}` : name;
      root ??= name;
      at = next;
    } else if (at.additionalProperties) {
      text = `${text}[${name}]`;
      root ??= '';
      at = at.additionalProperties.structural;
    } else throw new Error('does not refer to a valid field');
  };
  const toks = tokens(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      if (!allowArrayNotation) throw new Error('array notation is not allowed');
      const quoted = toks[++i];
      if (quoted === undefined) throw new Error('unexpected end of JSON path');
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'"))
        throw new Error(`expected single quoted string but got ${quoted}`);
      step(unescape(quoted.slice(1, -1)));
      const close = toks[++i];
      if (close === undefined) throw new Error('unexpected end of JSON path');
      if (close !== ']') throw new Error(`expected ] but got ${close}`);
    } else if (tok === '.') {
      const name = toks[++i];
      if (name === undefined) throw new Error('unexpected end of JSON path');
      step(name);
    } else throw new Error(`expected [ or . but got: ${tok}`);
  }
  return { path: text, root: root ?? '', schema: at };
}

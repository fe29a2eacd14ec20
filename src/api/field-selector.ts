/**
 * Field selectors (k8s.io/apimachinery pkg/fields/selector.go): comma-separated `f=v`, `f==v`,
 * `f!=v`; values escape `\`, `,` and `=` with a backslash. Matching is exact string comparison
 * against an object's selectable-field set.
 */
import { SelectorParseError } from './label-selector.js';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export type FieldSelector = readonly FieldRequirement[];

/** Split on unescaped commas. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '\\' && i + 1 < input.length) {
      cur += c + input[++i];
    } else if (c === ',') {
      terms.push(cur);
      cur = '';
    } else cur += c;
  }
  terms.push(cur);
  return terms;
}

function unescape(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\') {
      const n = value[++i];
      if (n !== '\\' && n !== ',' && n !== '=')
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${n ?? ''}`);
      out += n;
    } else if (c === ',' || c === '=') {
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c}`);
    } else out += c;
  }
  return out;
}

/** Parse a field selector; '' selects everything. Throws SelectorParseError (upstream messages). */
export function parseFieldSelector(input: string): FieldSelector {
  if (input.trim() === '') return [];
  return splitTerms(input).map((term) => {
    for (const op of ['!=', '==', '='] as const) {
      const at = term.indexOf(op);
      if (at > 0) {
        return {
          field: term.slice(0, at).trim(),
          operator: op === '!=' ? '!=' : '=',
          value: unescape(term.slice(at + op.length)),
        };
      }
    }
    throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${term}'`);
  });
}

/** True when `fields` satisfy every requirement (a missing field compares as ''). */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return selector.every((r) => ((fields[r.field] ?? '') === r.value) === (r.operator === '='));
}

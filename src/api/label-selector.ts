/**
 * Label selectors in upstream's string grammar (k8s.io/apimachinery pkg/labels/selector.go):
 * comma-separated requirements, all ANDed: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`,
 * `k` (exists), `!k` (does not exist), `k>5`, `k<5`. `!=` and `notin` also match objects without
 * the key. Keys must be qualified names and values label values, as upstream validates.
 */
import { validateLabelValue, validateQualifiedName } from './names.js';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** Thrown for an unparsable or invalid selector; the message is upstream's. */
export class SelectorParseError extends Error {}

export type LabelSelector = readonly LabelRequirement[];

const TOKEN = /\s*(\(|\)|,|!=|==|=|!|>|<|[^\s(),!=<>]+)/y;

function tokenize(input: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (TOKEN.lastIndex < input.length && (m = TOKEN.exec(input))) tokens.push(m[1]);
  if (input.slice(TOKEN.lastIndex).trim() !== '') throw new SelectorParseError(`unable to parse requirement: ${input}`);
  return tokens;
}

/** Parse a selector string; '' selects everything. Throws SelectorParseError. */
export function parseLabelSelector(input: string): LabelSelector {
  const tokens = tokenize(input);
  const reqs: LabelRequirement[] = [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  while (i < tokens.length) {
    let key: string;
    let operator: LabelOperator;
    let values: string[] = [];
    if (peek() === '!') {
      next();
      key = next() ?? '';
      operator = '!';
    } else {
      key = next();
      const op = peek();
      if (op === undefined || op === ',') operator = 'exists';
      else if (op === '=' || op === '==' || op === '!=') {
        next();
        operator = op;
        const v = peek();
        values = [v === undefined || v === ',' ? '' : (next() as string)];
      } else if (op === '>' || op === '<') {
        next();
        operator = op === '>' ? 'gt' : 'lt';
        const v = next();
        if (v === undefined || !/^-?\d+$/.test(v))
          throw new SelectorParseError(
            `unable to parse requirement: for 'gt', 'lt' operators, the value must be an integer`,
          );
        values = [v];
      } else if (op === 'in' || op === 'notin') {
        next();
        operator = op;
        if (next() !== '(') throw new SelectorParseError(`found '${tokens[i - 1] ?? ''}', expected: '('`);
        for (;;) {
          const v = peek();
          if (v === ')') {
            next();
            if (values.length === 0) values.push('');
            break;
          }
          if (v === ',') {
            next();
            if (values.length === 0 || tokens[i - 2] === ',' || tokens[i - 2] === '(') values.push('');
            continue;
          }
          if (v === undefined) throw new SelectorParseError(`found '', expected: ')'`);
          values.push(next());
        }
      } else {
        throw new SelectorParseError(`found '${op}', expected: '=', '!=', '==', 'in', notin'`);
      }
    }
    const keyErrors = validateQualifiedName(key);
    if (keyErrors.length)
      throw new SelectorParseError(`unable to parse requirement: invalid label key "${key}": ${keyErrors.join('; ')}`);
    for (const v of values) {
      if (operator === 'gt' || operator === 'lt') continue;
      const errs = validateLabelValue(v);
      if (errs.length)
        throw new SelectorParseError(
          `unable to parse requirement: invalid label value: "${v}": at key: "${key}": ${errs.join('; ')}`,
        );
    }
    reqs.push({ key, operator, values });
    const sep = next();
    if (sep !== undefined && sep !== ',')
      throw new SelectorParseError(`found '${sep}', expected: ',' or 'end of string'`);
    if (sep === ',' && i >= tokens.length) throw new SelectorParseError(`found '', expected: identifier after ','`);
  }
  return reqs;
}

/** True when `labels` satisfy every requirement. */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined | null,
): boolean {
  const l = labels ?? {};
  return selector.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.operator) {
      case '=':
      case '==':
      case 'in':
        return has && r.values.includes(v);
      case '!=':
      case 'notin':
        return !has || !r.values.includes(v);
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt':
      case 'lt': {
        if (!has || !/^-?\d+$/.test(v)) return false;
        return r.operator === 'gt' ? Number(v) > Number(r.values[0]) : Number(v) < Number(r.values[0]);
      }
    }
  });
}

/** A metav1.LabelSelector as objects carry it (matchLabels and matchExpressions). */
export interface LabelSelectorObject {
  readonly matchLabels?: Readonly<Record<string, string>> | null;
  readonly matchExpressions?:
    | readonly {
        readonly key?: string | null;
        readonly operator?: string | null;
        readonly values?: readonly string[] | null;
      }[]
    | null;
}

const EXPRESSION_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * The requirements of a metav1.LabelSelector (upstream metav1.LabelSelectorAsSelector): an
 * empty selector matches everything. Throws SelectorParseError for an unknown operator.
 */
export function labelSelectorOf(selector: LabelSelectorObject): LabelSelector {
  const reqs: LabelRequirement[] = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({
    key,
    operator: '=',
    values: [value],
  }));
  for (const e of selector.matchExpressions ?? []) {
    const name = String(e.operator);
    const operator = EXPRESSION_OPERATORS[name];
    if (!operator) throw new SelectorParseError(`"${name}" is not a valid pod selector operator`);
    reqs.push({ key: e.key ?? '', operator, values: e.values ?? [] });
  }
  return reqs;
}

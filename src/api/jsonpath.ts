/**
 * The JSONPath of CRD printer columns and selectable fields, as upstream's
 * k8s.io/client-go/util/jsonpath evaluates a path such as `.status.conditions[?(@.type=="Ready")].status`
 * inside `{...}`: field steps (`.a`, `['a']`, `.*`), array indexes and slices (`[0]`, `[-1]`,
 * `[1:3]`, `[*]`), recursive descent (`..a`) and filters comparing a relative path with a
 * literal (`[?(@.type=="Ready")]`, `==`, `!=`, `<`, `<=`, `>`, `>=`; a bare `[?(@.x)]` tests
 * existence). Missing keys give no result (upstream AllowMissingKeys, as printer columns use).
 * Unions, ranges and templates with text around `{}` are not supported (parse error).
 */

/** One step of a parsed path. */
export type JsonPathStep =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive'; readonly name: string | null }
  | { readonly kind: 'index'; readonly start: number | null; readonly end: number | null; readonly single: boolean }
  | {
      readonly kind: 'filter';
      readonly path: readonly JsonPathStep[];
      readonly op: '==' | '!=' | '<' | '<=' | '>' | '>=' | 'exists';
      readonly value?: string | number | boolean | null;
    };

/** Raised for a path outside the grammar above; `message` says where. */
export class JsonPathError extends Error {}

const IDENT = /^[A-Za-z0-9_$-]+/;

/** Parse a path (`.spec.replicas`, optionally wrapped in `{}`). Throws JsonPathError. */
export function parseJsonPath(source: string): JsonPathStep[] {
  let text = source.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const steps: JsonPathStep[] = [];
  let at = 0;
  const fail = (why: string): never => {
    throw new JsonPathError(`invalid JSONPath ${JSON.stringify(source)}: ${why}`);
  };
  while (at < text.length) {
    const c = text[at];
    if (text.startsWith('..', at)) {
      at += 2;
      const m = IDENT.exec(text.slice(at));
      if (text[at] === '*') {
        at++;
        steps.push({ kind: 'recursive', name: null });
      } else if (m) {
        at += m[0].length;
        steps.push({ kind: 'recursive', name: m[0] });
      } else fail(`expected a field name after ".." at ${at}`);
    } else if (c === '.') {
      at++;
      if (text[at] === '*') {
        at++;
        steps.push({ kind: 'wildcard' });
        continue;
      }
      const m = IDENT.exec(text.slice(at));
      if (!m) fail(`expected a field name at ${at}`);
      at += m![0].length;
      steps.push({ kind: 'field', name: m![0] });
    } else if (c === '[') {
      const close = closingBracket(text, at);
      if (close < 0) fail(`unterminated [ at ${at}`);
      steps.push(bracketStep(text.slice(at + 1, close).trim(), fail));
      at = close + 1;
    } else fail(`unexpected ${JSON.stringify(c)} at ${at}`);
  }
  return steps;
}

function closingBracket(text: string, open: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

function bracketStep(inner: string, fail: (why: string) => never): JsonPathStep {
  if (inner === '*') return { kind: 'wildcard' };
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return { kind: 'field', name: quoted[2]! };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', start: Number(inner), end: null, single: true };
  const slice = /^(-?\d+)?:(-?\d+)?$/.exec(inner);
  if (slice)
    return {
      kind: 'index',
      start: slice[1] === undefined ? null : Number(slice[1]),
      end: slice[2] === undefined ? null : Number(slice[2]),
      single: false,
    };
  const filter = /^\?\((.*)\)$/s.exec(inner);
  if (!filter) return fail(`unsupported [${inner}]`);
  const expr = filter[1]!.trim();
  const cmp = /^@((?:\.[A-Za-z0-9_$-]+|\[[^\]]*\])*)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s.exec(expr);
  if (cmp)
    return { kind: 'filter', path: parseJsonPath(cmp[1]!), op: cmp[2] as '==', value: literal(cmp[3]!.trim(), fail) };
  const exists = /^@((?:\.[A-Za-z0-9_$-]+|\[[^\]]*\])+)$/.exec(expr);
  if (exists) return { kind: 'filter', path: parseJsonPath(exists[1]!), op: 'exists' };
  return fail(`unsupported filter ${expr}`);
}

function literal(text: string, fail: (why: string) => never): string | number | boolean | null {
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  if (quoted) return quoted[2]!;
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'nil' || text === 'null') return null;
  const n = Number(text);
  if (text !== '' && Number.isFinite(n)) return n;
  return fail(`unsupported literal ${text}`);
}

/** Every value `steps` select in `data`, in document order; none when a key is missing. */
export function findJsonPath(data: unknown, steps: readonly JsonPathStep[]): unknown[] {
  let current: unknown[] = [data];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) apply(step, value, next);
    current = next;
  }
  return current;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function apply(step: JsonPathStep, value: unknown, out: unknown[]): void {
  switch (step.kind) {
    case 'field':
      if (isRecord(value) && Object.hasOwn(value, step.name)) out.push(value[step.name]);
      return;
    case 'wildcard':
      if (Array.isArray(value)) out.push(...value);
      else if (isRecord(value)) for (const k of Object.keys(value).sort()) out.push(value[k]);
      return;
    case 'recursive':
      descend(value, step.name, out);
      return;
    case 'index': {
      if (!Array.isArray(value)) return;
      const len = value.length;
      const norm = (i: number) => (i < 0 ? i + len : i);
      if (step.single) {
        const i = norm(step.start ?? 0);
        if (i >= 0 && i < len) out.push(value[i]);
        return;
      }
      const start = Math.max(0, step.start === null ? 0 : norm(step.start));
      const end = Math.min(len, step.end === null ? len : norm(step.end));
      for (let i = start; i < end; i++) out.push(value[i]);
      return;
    }
    case 'filter': {
      const items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
      for (const item of items) if (matches(step, item)) out.push(item);
    }
  }
}

function descend(value: unknown, name: string | null, out: unknown[]): void {
  if (isRecord(value)) {
    if (name === null) out.push(...Object.values(value));
    else if (Object.hasOwn(value, name)) out.push(value[name]);
    for (const v of Object.values(value)) descend(v, name, out);
  } else if (Array.isArray(value)) {
    if (name === null) out.push(...value);
    for (const v of value) descend(v, name, out);
  }
}

function matches(step: Extract<JsonPathStep, { kind: 'filter' }>, item: unknown): boolean {
  const found = findJsonPath(item, step.path);
  if (step.op === 'exists') return found.length > 0;
  if (!found.length) return false;
  const left = found[0];
  const right = step.value;
  switch (step.op) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    default: {
      if (typeof left !== 'number' || typeof right !== 'number') return false;
      if (step.op === '<') return left < right;
      if (step.op === '<=') return left <= right;
      if (step.op === '>') return left > right;
      return left >= right;
    }
  }
}

/**
 * Mutations of JSON documents for the fuzz suite: a mutation names a place in the document by
 * index (taken modulo the number of places, so any generated index fits any document) and
 * what to do there: delete, replace with any JSON, change the type, nest deeply, put a huge or
 * odd string or an edge-case number, or break metadata/kind/apiVersion. Numbers JSON cannot
 * spell from JavaScript (`1e400`, `-0`, 30-digit integers) and deep nestings (which
 * JSON.stringify and the YAML writer could not write without exhausting the stack) are
 * markers that `spliceMarkers` replaces in the encoded text.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** A raw JSON number literal to splice into the text. */
export const rawNumber = (literal: string): string => `@@RAW:${literal}@@`;

/** Nesting of `depth` arrays or objects around a leaf, spliced into the text as flow JSON (valid YAML too). */
export const deepValue = (depth: number, kind: 'array' | 'object' | 'mixed'): string => `@@DEEP:${depth}/${kind}@@`;

function deepText(depth: number, kind: string): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    const array = kind === 'array' || (kind === 'mixed' && i % 2 === 1);
    open.push(array ? '[' : '{"d":');
    close.push(array ? ']' : '}');
  }
  return open.join('') + '"leaf"' + close.reverse().join('');
}

/** Replace the markers (quoted or not) in JSON or YAML text. */
export function spliceMarkers(text: string): string {
  return text.replace(/(["']?)@@(RAW|DEEP):([^@"']*)@@\1/g, (_m, _q, what: string, arg: string) => {
    if (what === 'RAW') return arg;
    const [depth, kind] = arg.split('/');
    return deepText(Number(depth), kind);
  });
}

/** JSON text of a value, markers spliced. */
export function toJsonText(value: unknown): string {
  return spliceMarkers(JSON.stringify(value));
}

/** Every place of a document: parent container and key (the root is `null`). */
function places(doc: Json): { parent: Json[] | Record<string, Json>; key: string | number }[] {
  const out: { parent: Json[] | Record<string, Json>; key: string | number }[] = [];
  const stack: Json[] = [doc];
  while (stack.length > 0 && out.length < 5_000) {
    const v = stack.pop()!;
    if (Array.isArray(v)) {
      v.forEach((child, i) => {
        out.push({ parent: v, key: i });
        stack.push(child);
      });
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        out.push({ parent: v, key: k });
        stack.push(child);
      }
    }
  }
  return out;
}

const DEPTHS = [5, 50, 99, 100, 101, 150, 700, 1_000, 12_000];
const EDGE_NUMBERS: Json[] = [
  0,
  -1,
  0.5,
  1e300,
  -1e300,
  1e-300,
  2 ** 31,
  2 ** 53 + 2,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '-0',
  '1E+999',
  '123456789012345678901234567890',
  '0.0000000000000000000000001',
  '-0.0',
];
const ODD_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  '💥'.repeat(50),
  'a\u202eb',
  '${x}',
  '%00',
  '../..',
  '\\',
  '"',
  '\n\r\t',
  '{"a":1}',
  '0x1F',
  '1e300',
  '-0',
  'true',
  'null',
];

/** What a single mutation does at its place. */
export type MutationKind =
  | { t: 'delete' }
  | { t: 'replace'; value: Json }
  | { t: 'retype'; to: 'string' | 'number' | 'bool' | 'null' | 'array' | 'object' }
  | { t: 'deep'; depth: number; kind: 'array' | 'object' | 'mixed' }
  | { t: 'huge'; length: number }
  | { t: 'string'; value: string }
  | { t: 'number'; value: Json }
  | { t: 'raw'; literal: string }
  | { t: 'unknownField'; key: string; value: Json };

export interface Mutation {
  readonly at: number;
  readonly kind: MutationKind;
}

export const mutationKindArb: fc.Arbitrary<MutationKind> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ t: 'delete' as const }) },
  {
    weight: 3,
    arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ t: 'replace' as const, value: value as Json })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('string', 'number', 'bool', 'null', 'array', 'object')
      .map((to) => ({ t: 'retype' as const, to })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('deep' as const),
      depth: fc.constantFrom(...DEPTHS),
      kind: fc.constantFrom('array', 'object', 'mixed'),
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 70_000, 300_000).map((length) => ({ t: 'huge' as const, length })) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }))
      .map((value) => ({ t: 'string' as const, value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom(...EDGE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
      .map((value) => ({ t: 'number' as const, value: Object.is(value, -0) ? 0 : value })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((literal) => ({ t: 'raw' as const, literal })) },
  {
    weight: 1,
    arbitrary: fc.record({
      t: fc.constant('unknownField' as const),
      key: fc.constantFrom('__proto__', 'constructor', 'x-unknown', '$patch', '', 'é', '💥', 'a\u0001b'),
      value: fc.jsonValue({ maxDepth: 2 }).map((v) => v as Json),
    }),
  },
);

export const mutationsArb = (max = 3): fc.Arbitrary<Mutation[]> =>
  fc.array(fc.record({ at: fc.nat(), kind: mutationKindArb }), { maxLength: max });

function retyped(value: Json, to: string): Json {
  switch (to) {
    case 'string':
      return typeof value === 'string' ? 'x' : (JSON.stringify(value) ?? 'x');
    case 'number':
      return typeof value === 'number' ? -value : 7;
    case 'bool':
      return !value;
    case 'null':
      return null;
    case 'array':
      return Array.isArray(value) ? [] : [value];
    default:
      return value && typeof value === 'object' && !Array.isArray(value) ? {} : { value };
  }
}

/** Apply mutations to a copy of `doc` (the root itself may be replaced). */
export function mutate(doc: Json, mutations: readonly Mutation[]): Json {
  const root: Json = structuredClone(doc);
  for (const m of mutations) {
    const all = places(root);
    if (all.length === 0) continue;
    const { parent, key } = all[m.at % all.length];
    const current = (parent as Record<string, Json>)[key as string];
    const set = (v: Json) => ((parent as Record<string, Json>)[key as string] = v);
    const k = m.kind;
    switch (k.t) {
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
        break;
      case 'replace':
        set(k.value);
        break;
      case 'retype':
        set(retyped(current, k.to));
        break;
      case 'deep':
        set(deepValue(k.depth, k.kind));
        break;
      case 'huge':
        set('h'.repeat(k.length));
        break;
      case 'string':
        set(k.value);
        break;
      case 'number':
        set(k.value);
        break;
      case 'raw':
        set(rawNumber(k.literal));
        break;
      case 'unknownField':
        if (current && typeof current === 'object' && !Array.isArray(current))
          Object.defineProperty(current, k.key, {
            value: k.value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else set({ [k.key]: k.value });
        break;
    }
  }
  return root;
}

/** Whole-document damage to kind, apiVersion and metadata, the fields every decoder relies on. */
export const envelopeDamageArb: fc.Arbitrary<(doc: Record<string, Json>) => void> = fc.constantFrom<
  (doc: Record<string, Json>) => void
>(
  () => undefined,
  () => undefined,
  () => undefined,
  (d) => void (d.metadata = null),
  (d) => void (d.metadata = 'x'),
  (d) => void (d.metadata = []),
  (d) => void delete d.metadata,
  (d) => void (d.kind = 'Other'),
  (d) => void (d.kind = 5),
  (d) => void (d.apiVersion = 'v2'),
  (d) => void (d.apiVersion = null),
  (d) =>
    void (
      (d.metadata as Record<string, Json>) &&
      typeof d.metadata === 'object' &&
      ((d.metadata as Record<string, Json>).name = 7)
    ),
  (d) =>
    void (
      (d.metadata as Record<string, Json>) &&
      typeof d.metadata === 'object' &&
      ((d.metadata as Record<string, Json>).namespace = 'other-ns')
    ),
  (d) =>
    void (
      (d.metadata as Record<string, Json>) &&
      typeof d.metadata === 'object' &&
      ((d.metadata as Record<string, Json>).resourceVersion = '1')
    ),
  (d) =>
    void (
      (d.metadata as Record<string, Json>) &&
      typeof d.metadata === 'object' &&
      ((d.metadata as Record<string, Json>).ownerReferences = [{ apiVersion: 'v1', kind: 'Pod', name: 'o', uid: 'u' }])
    ),
  (d) =>
    void (
      (d.metadata as Record<string, Json>) &&
      typeof d.metadata === 'object' &&
      ((d.metadata as Record<string, Json>).finalizers = ['example.com/f', 7 as never])
    ),
);

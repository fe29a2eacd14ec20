/**
 * Request bodies for the fuzz suite: a document (a valid object of some kind, mutated) is
 * encoded as JSON, YAML or protobuf, and the encoded bytes may be damaged further; patch
 * bodies of the three patch types are built from the stored object; hostile texts (deep flow
 * collections, alias bombs, cyclic aliases, tags) stand in for the document now and then.
 */
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import type { ProtobufCodec } from '../../src/api/protobuf/codec.js';
import {
  envelopeDamageArb,
  mutationsArb,
  mutate,
  spliceMarkers,
  toJsonText,
  deepValue,
  type Json,
  type Mutation,
} from './mutations.js';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPES = ['application/vnd.kubernetes.protobuf', 'application/vnd.ck.protobuf'];
export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
export const APPLY_PATCH = 'application/apply-patch+yaml';
const GARBAGE_TYPES = [
  'text/plain',
  'application/xml',
  'application/json; charset=utf-16',
  '*/*',
  'application/',
  ';;',
  'application/json-patch+json+json',
  'multipart/form-data; boundary=x',
];

/** How the document is turned into bytes. */
export type Encoding =
  | { e: 'json'; contentType: string; damage: TextDamage }
  | { e: 'yaml'; contentType: string; flow: boolean; damage: TextDamage }
  | { e: 'protobuf'; contentType: string; damage: ByteDamage }
  | { e: 'hostile'; contentType: string; text: string }
  | { e: 'none' };

export type TextDamage =
  { d: 'none' } | { d: 'truncate'; at: number } | { d: 'insert'; at: number; text: string } | { d: 'bom' };
export type ByteDamage =
  | { d: 'none' }
  | { d: 'flip'; at: number[] }
  | { d: 'truncate'; at: number }
  | { d: 'magic' }
  | { d: 'random'; bytes: Uint8Array };

const textDamageArb: fc.Arbitrary<TextDamage> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ d: 'none' as const }) },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ d: 'truncate' as const, at })) },
  {
    weight: 1,
    arbitrary: fc.record({
      d: fc.constant('insert' as const),
      at: fc.nat(),
      text: fc.constantFrom(
        '\u0000',
        ',',
        ']',
        '{',
        '"',
        '\\',
        '\n- ',
        ': ',
        '&a ',
        '*a',
        '!!binary ',
        '\ud800',
        'NaN',
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ d: 'bom' as const }) },
);

const byteDamageArb: fc.Arbitrary<ByteDamage> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ d: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }).map((at) => ({ d: 'flip' as const, at })),
  },
  { weight: 1, arbitrary: fc.nat().map((at) => ({ d: 'truncate' as const, at })) },
  { weight: 1, arbitrary: fc.constant({ d: 'magic' as const }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ d: 'random' as const, bytes })) },
);

/** Hostile texts sent as JSON or YAML bodies. */
const HOSTILE_TEXTS = [
  '['.repeat(1000) + ']'.repeat(1000),
  '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  '- '.repeat(3000) + 'x',
  '? '.repeat(2000) + 'x',
  Array.from({ length: 900 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1',
  'a: &a [x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
  'metadata: &m {name: cyc, labels: *m}\n',
  'metadata: {name: tags}\ndata: {a: !!binary aGVsbG8=, b: !!set {x}, c: !!omap [x: 1], d: !!timestamp 2001-12-14}\n',
  'metadata: {name: inf}\ndata: {a: .inf, b: .nan}\n',
  'metadata: {name: dup}\nmetadata: {name: dup2}\n',
  'a: 1\n---\nb: 2\n',
  '%YAML 1.1\n---\nmetadata: {name: y11}\n',
  '\t- x\n\t\t- y',
  '"' + '\\'.repeat(10001) + '"',
  '{"metadata":{"name":"u"},"data":{"k":"\\ud800"}}',
  '1e400',
  'null',
  '[]',
  '"just a string"',
];

export const encodingArb: fc.Arbitrary<Encoding> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      e: fc.constant('json' as const),
      contentType: fc.constantFrom(JSON_TYPE, JSON_TYPE, 'application/json; charset=utf-8', ''),
      damage: textDamageArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      e: fc.constant('yaml' as const),
      contentType: fc.constantFrom(YAML_TYPE, 'text/yaml'),
      flow: fc.boolean(),
      damage: textDamageArb,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      e: fc.constant('protobuf' as const),
      contentType: fc.constantFrom(...PROTOBUF_TYPES),
      damage: byteDamageArb,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      e: fc.constant('hostile' as const),
      contentType: fc.constantFrom(JSON_TYPE, YAML_TYPE),
      text: fc.constantFrom(...HOSTILE_TEXTS),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      e: fc.constant('hostile' as const),
      contentType: fc.constantFrom(...GARBAGE_TYPES, APPLY_PATCH, ...PATCH_TYPES),
      text: fc.constantFrom('{}', 'x', '{"metadata":{"name":"g"}}'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ e: 'none' as const }) },
);

function damageText(text: string, damage: TextDamage): string {
  switch (damage.d) {
    case 'none':
      return text;
    case 'truncate':
      return text.slice(0, damage.at % (text.length + 1));
    case 'insert': {
      const at = damage.at % (text.length + 1);
      return text.slice(0, at) + damage.text + text.slice(at);
    }
    case 'bom':
      return '\ufeff' + text;
  }
}

function damageBytes(bytes: Buffer, damage: ByteDamage): Buffer {
  const out = Buffer.from(bytes);
  switch (damage.d) {
    case 'none':
      return out;
    case 'flip':
      for (const at of damage.at) if (out.length) out[at % out.length] ^= 0xff;
      return out;
    case 'truncate':
      return out.subarray(0, damage.at % (out.length + 1));
    case 'magic':
      return Buffer.concat([Buffer.from('k8s\u0001'), out.subarray(4)]);
    case 'random':
      return Buffer.concat([out.subarray(0, 4), Buffer.from(damage.bytes)]);
  }
}

/** Encode `doc` (kind and apiVersion stamped for protobuf's envelope). Undefined: no body. */
export function encode(
  doc: Json,
  encoding: Encoding,
  codec: ProtobufCodec,
  kind: string,
  apiVersion: string,
): { contentType?: string; body?: string | Buffer } {
  switch (encoding.e) {
    case 'none':
      return {};
    case 'hostile':
      return { contentType: encoding.contentType, body: encoding.text };
    case 'json':
      return { contentType: encoding.contentType || undefined, body: damageText(toJsonText(doc), encoding.damage) };
    case 'yaml': {
      const text = spliceMarkers(
        toYaml(doc, { collectionStyle: encoding.flow ? 'flow' : 'block', aliasDuplicateObjects: false }),
      );
      return { contentType: encoding.contentType, body: damageText(text, encoding.damage) };
    }
    case 'protobuf': {
      let bytes: Buffer;
      try {
        const obj = doc && typeof doc === 'object' && !Array.isArray(doc) ? doc : { value: doc };
        bytes = codec.encodeObject({ apiVersion, kind, ...(JSON.parse(toJsonText(obj)) as Record<string, unknown>) });
      } catch {
        bytes = Buffer.concat([Buffer.from('k8s\u0000'), Buffer.from(toJsonText(doc).slice(0, 200))]);
      }
      return { contentType: encoding.contentType, body: damageBytes(bytes, encoding.damage) };
    }
  }
}

/** A document recipe: mutations of the base object, then damage to its envelope. */
export interface DocRecipe {
  readonly mutations: Mutation[];
  readonly envelope: (doc: Record<string, Json>) => void;
}

export const docRecipeArb: fc.Arbitrary<DocRecipe> = fc.record({
  mutations: mutationsArb(3),
  envelope: envelopeDamageArb,
});

/** The document a recipe makes of `base`. */
export function makeDoc(base: Json, recipe: DocRecipe): Json {
  const doc = mutate(base, recipe.mutations);
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) recipe.envelope(doc);
  return doc;
}

/** A JSON patch operation recipe; paths come from the target document. */
export interface OpRecipe {
  readonly op: string;
  readonly path: number | string;
  readonly from: number | string;
  readonly value: Mutation[];
}

const oddPointers = [
  '',
  '/',
  '/-',
  '/metadata/~1',
  '/metadata/~2',
  '/spec/containers/-',
  '/spec/containers/99',
  '/metadata/__proto__/x',
  '/constructor/prototype',
  '/metadata/labels/a~1b',
  '//',
  '/a/b/c/d',
];

export const jsonPatchArb: fc.Arbitrary<OpRecipe[] | string> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.array(
      fc.record({
        op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'test', 'bogus'),
        path: fc.oneof(fc.nat(), fc.constantFrom(...oddPointers)),
        from: fc.oneof(fc.nat(), fc.constantFrom(...oddPointers)),
        value: mutationsArb(2),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{}',
      '"ops"',
      'null',
      '[1,2]',
      '[{"op":"add"}]',
      '[{"op":"add","path":5,"value":1}]',
      '[' +
        Array.from({ length: 40 }, (_, i) => `{"op":"copy","from":"/metadata","path":"/metadata/x${i}"}`).join(',') +
        ']',
    ),
  },
);

/** JSON pointers of every place of `doc` (iteratively), `''` for the root. */
export function pointers(doc: Json): string[] {
  const out = [''];
  const stack: [Json, string][] = [[doc, '']];
  while (stack.length > 0 && out.length < 2_000) {
    const [v, at] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    for (const [k, child] of Array.isArray(v) ? v.map((c, i) => [String(i), c] as const) : Object.entries(v)) {
      const p = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      out.push(p);
      stack.push([child, p]);
    }
  }
  return out;
}

/** A JSON patch body for `target`. */
export function makeJsonPatch(target: Json, recipe: OpRecipe[] | string): string {
  if (typeof recipe === 'string') return recipe;
  const ptrs = pointers(target);
  const pick = (p: number | string) => (typeof p === 'number' ? ptrs[p % ptrs.length] : p);
  const ops = recipe.map((r) => {
    const op: Record<string, Json> = { op: r.op, path: pick(r.path) };
    if (r.op === 'move' || r.op === 'copy') op.from = pick(r.from);
    if (r.op === 'add' || r.op === 'replace' || r.op === 'test') op.value = mutate({ v: 'seed' }, r.value) as Json;
    return op;
  });
  // `value` holds the mutated wrapper: unwrap it (a deleted wrapper field stays absent).
  return toJsonText(
    ops.map((o) =>
      o.value && typeof o.value === 'object' && !Array.isArray(o.value)
        ? { ...o, value: (o.value as Record<string, Json>).v ?? deepValue(3, 'mixed') }
        : o,
    ),
  );
}

/** Strategic-merge directives dropped into a merge-patch document. */
export const directiveArb: fc.Arbitrary<[string, Json] | null> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<[string, Json]>(
      ['$patch', 'delete'],
      ['$patch', 'replace'],
      ['$patch', 'merge'],
      ['$patch', 'bogus'],
      ['$patch', 5],
      ['$retainKeys', ['metadata']],
      ['$retainKeys', 'x'],
      ['$setElementOrder/containers', [{ name: 'c' }]],
      ['$setElementOrder/containers', 'x'],
      ['$deleteFromPrimitiveList/finalizers', ['a']],
      ['$deleteFromPrimitiveList/finalizers', 5],
    ),
  },
);

/**
 * Test support: evaluates the case tables of upstream's apiextensions-apiserver
 * pkg/apiserver/schema/cel/validation_test.go and compilation_test.go (v0.33.0), stored as
 * JSON arrays of JS expression text (translated mechanically from the Go composite literals),
 * with the same helper functions upstream's tests use (objs, schemas, objectType, listType,
 * withRule, ...) producing Go-shaped schema objects that {@link fromGo} turns into Structural.
 */
import { parse as parseYaml } from 'yaml';
import { toStructural } from '../../crd-schema/structural.js';
import type { JSONSchemaProps, NestedValueValidation, Structural, ValidationRule } from '../../crd-schema/types.js';

/** Upstream's FixTabsOrDie: drop the first line's leading tabs from every line, other tabs as two spaces. */
function fixTabs(src: string): string {
  const lines = src.split('\n');
  if (lines[0] === '' && lines.length > 1) lines.shift();
  const prefix = /^\t*/.exec(lines[0]!)![0];
  return lines
    .map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l.trim()))
    .join('\n')
    .replace(/\t/g, '  ');
}

type Go = Record<string, unknown>;
const clone = <T>(x: T): T => structuredClone(x);

const prim = (Type: string, Format = ''): Go => ({
  Generic: { Type },
  ...(Format ? { ValueValidation: { Format } } : {}),
});
const arrayType = (listType: string, keys: string[] | undefined, items: Go): Go => ({
  Generic: { Type: 'array' },
  Extensions: { XListType: listType, ...(keys?.length && listType === 'map' ? { XListMapKeys: keys } : {}) },
  Items: items,
});
const objectType = (props: Record<string, Go>): Go => ({ Generic: { Type: 'object' }, Properties: props });
const mapType = (s: Go): Go => ({ Generic: { Type: 'object' }, AdditionalProperties: { Bool: true, Structural: s } });
const withRule = (s: Go, rule: string): Go => ({
  ...clone(s),
  ValidationExtensions: { XValidations: [{ Rule: rule }] },
});
const withVV = (s: Go, k: string, v: unknown): Go => ({
  ...clone(s),
  ValueValidation: { ...((s.ValueValidation as Go) ?? {}), [k]: v },
});
const withGeneric = (s: Go, k: string, v: unknown): Go => ({
  ...clone(s),
  Generic: { ...((s.Generic as Go) ?? {}), [k]: v },
});

/** Go's fmt.Sprintf for %d, %s, %v, %f, %q. */
function sprintf(f: string, ...args: unknown[]): string {
  let i = 0;
  return f.replace(/%([dsvfq%])/g, (_, c: string) => {
    if (c === '%') return '%';
    const a = args[i++];
    if (c === 'f') return (a as number).toFixed(6);
    if (c === 'q') return JSON.stringify(a);
    return String(a);
  });
}

const identity = <T>(x: T): T => x;

/** The helpers in scope of a case expression. */
export const HELPERS: Record<string, unknown> = {
  id: identity,
  int64: identity,
  int32: identity,
  float64: identity,
  float32: identity,
  sprintf,
  math_MaxInt64: Number.MAX_SAFE_INTEGER,
  math_MinInt64: -Number.MAX_SAFE_INTEGER,
  math_MaxInt32: 2147483647,
  math_MinInt32: -2147483648,
  math_MaxFloat64: Number.MAX_VALUE,
  math_MaxFloat32: 3.4028234663852886e38,
  math_MaxUint: Number.MAX_SAFE_INTEGER,
  primitiveType: prim,
  integerType: prim('integer'),
  int32Type: prim('integer', 'int32'),
  int64Type: prim('integer', 'int64'),
  numberType: prim('number'),
  floatType: prim('number', 'float'),
  doubleType: prim('number', 'double'),
  stringType: prim('string'),
  byteType: prim('string', 'byte'),
  booleanType: prim('boolean'),
  durationFormat: prim('string', 'duration'),
  dateFormat: prim('string', 'date'),
  dateTimeFormat: prim('string', 'date-time'),
  listType: (items: Go) => arrayType('atomic', undefined, items),
  listTypePtr: (items: Go) => arrayType('atomic', undefined, items),
  listSetType: (items: Go) => arrayType('set', undefined, items),
  listMapType: (keys: string[], items: Go) => arrayType('map', keys, items),
  listMapTypePtr: (keys: string[], items: Go) => arrayType('map', keys, items),
  arrayType,
  objectType,
  objectTypePtr: objectType,
  mapType,
  mapTypePtr: mapType,
  intOrStringType: (): Go => ({ Extensions: { XIntOrString: true } }),
  withRule,
  withRulePtr: withRule,
  cloneWithRule: withRule,
  withMaxLength: (s: Go, n: number) => withVV(s, 'MaxLength', n),
  withMaxItems: (s: Go, n: number) => withVV(s, 'MaxItems', n),
  withMaxProperties: (s: Go, n: number) => withVV(s, 'MaxProperties', n),
  withDefault: (d: unknown, s: Go) => withGeneric(s, 'Default', { Object: d }),
  withNullable: (n: boolean, s: Go) => withGeneric(s, 'Nullable', n),
  withNullablePtr: (n: boolean, s: Go) => withGeneric(s, 'Nullable', n),
  nilInterfaceOfStringSlice: () => null,
  undefined,
  objs: (...vals: unknown[]) => Object.fromEntries(vals.map((v, i) => [`val${i + 1}`, v])),
  schemas: (...ss: Go[]) => objectType(Object.fromEntries(ss.map((s, i) => [`val${i + 1}`, s]))),
  ValsEqualThemselvesAndDataLiteral: (a: string, b: string, lit: string) =>
    `${a} == ${lit} && ${lit} == ${a} && ${a} == ${b}`,
  forbiddenReason: 'FieldValueForbidden',
  celconfig_RuntimeCELCostBudget: 10_000_000,
  celconfig_PerCallLimit: 1_000_000,
  genString: (n: number, c: string) => c.repeat(n),
  withReasonAndFldPath: (s: Go, rule: string, fieldPath: string, reason: string | null): Go => ({
    ...clone(s),
    ValidationExtensions: { XValidations: [{ Rule: rule, FieldPath: fieldPath, Reason: reason }] },
  }),
  mustSchema: (src: string): Go => ({ __structural: toStructural(parseYaml(fixTabs(src)) as JSONSchemaProps) }),
  mustUnstructured: (src: string): unknown => parseYaml(fixTabs(src)),
  genMatchSelectorSchema: (rule: string): Go =>
    withRule(
      objectType({
        matchExpressions: arrayType(
          'atomic',
          undefined,
          objectType({
            key: prim('string'),
            operator: prim('string'),
            values: arrayType('atomic', undefined, prim('string')),
          }),
        ),
      }),
      rule,
    ),
  noError: () => ({ kind: 'noError' }),
  invalidError: (contains: string) => ({ kind: 'invalidError', contains }),
  messageExpressionError: (contains: string) => ({ kind: 'messageExpressionError', contains }),
  transitionRule: (t: boolean) => ({ kind: 'transitionRule', t }),
  matchesAll: (...m: unknown[]) => ({ kind: 'all', m }),
};

/** Evaluate one case's text; throws when it uses something not supported here. */
export function evalCase(text: string): Record<string, unknown> {
  const names = Object.keys(HELPERS);
  const f = new Function(...names, `return (${text});`) as (...a: unknown[]) => Record<string, unknown>;
  return f(...names.map((n) => HELPERS[n]));
}

/** A Go-shaped schema.Structural as the Structural this project uses. */
export function fromGo(g: Go | undefined): Structural | undefined {
  if (!g) return undefined;
  if (g.__structural) return g.__structural as Structural;
  const gen = (g.Generic as Go) ?? {};
  const ext = (g.Extensions as Go) ?? {};
  const vv = (g.ValueValidation as Go) ?? {};
  const xv = ((g.ValidationExtensions as Go)?.XValidations ?? g.XValidations) as Go[] | undefined;
  const ap = g.AdditionalProperties as Go | undefined;
  const out: Structural = {
    generic: {
      ...(gen.Type ? { type: gen.Type as string } : {}),
      ...(gen.Nullable ? { nullable: true } : {}),
      ...(gen.Default != null ? { default: (gen.Default as Go).Object ?? gen.Default } : {}),
      ...(ap ? { additionalProperties: { bool: true, structural: fromGo(ap.Structural as Go) } } : {}),
    },
    extensions: {
      ...(ext.XPreserveUnknownFields ? { xPreserveUnknownFields: true } : {}),
      ...(ext.XEmbeddedResource ? { xEmbeddedResource: true } : {}),
      ...(ext.XIntOrString ? { xIntOrString: true } : {}),
      ...(ext.XListType ? { xListType: ext.XListType as string } : {}),
      ...(ext.XListMapKeys ? { xListMapKeys: ext.XListMapKeys as string[] } : {}),
      ...(ext.XMapType ? { xMapType: ext.XMapType as string } : {}),
      ...(xv ? { xValidations: xv.map(fromGoRule) } : {}),
    },
    valueValidation: {
      ...(vv.Format ? { format: vv.Format as string } : {}),
      ...(vv.MaxLength != null ? { maxLength: vv.MaxLength as number } : {}),
      ...(vv.MaxItems != null ? { maxItems: vv.MaxItems as number } : {}),
      ...(vv.MaxProperties != null ? { maxProperties: vv.MaxProperties as number } : {}),
      ...(vv.Required ? { required: vv.Required as string[] } : {}),
      ...(vv.Enum ? { enum: (vv.Enum as Go[]).map((e) => e.Object ?? e) } : {}),
      ...(vv.AllOf ? { allOf: (vv.AllOf as Go[]).map(fromGoNested) } : {}),
    },
  };
  if (g.Items) out.items = fromGo(g.Items as Go);
  if (g.Properties) {
    out.properties = Object.fromEntries(
      Object.entries(g.Properties as Record<string, Go>).map(([k, v]) => [k, fromGo(v)!]),
    );
  }
  return out;
}

function fromGoRule(r: Go): ValidationRule {
  return {
    rule: (r.Rule as string) ?? '',
    ...(r.Message ? { message: r.Message as string } : {}),
    ...(r.MessageExpression ? { messageExpression: r.MessageExpression as string } : {}),
    ...(r.Reason ? { reason: r.Reason as ValidationRule['reason'] } : {}),
    ...(r.FieldPath ? { fieldPath: r.FieldPath as string } : {}),
    ...(r.OptionalOldSelf != null ? { optionalOldSelf: r.OptionalOldSelf as boolean } : {}),
  };
}

/** A Go-shaped NestedValueValidation (allOf entry): its rules, items and properties. */
function fromGoNested(g: Go): NestedValueValidation & { additionalProperties?: NestedValueValidation } {
  const xv = ((g.ValidationExtensions as Go)?.XValidations ?? []) as Go[];
  const vv = (g.ValueValidation as Go) ?? {};
  const out: NestedValueValidation & { additionalProperties?: NestedValueValidation } = {
    forbiddenGenerics: {},
    forbiddenExtensions: xv.length ? { xValidations: xv.map(fromGoRule) } : {},
    ...(vv.AllOf ? { allOf: (vv.AllOf as Go[]).map(fromGoNested) } : {}),
  };
  if (g.Items) out.items = fromGoNested(g.Items as Go);
  if (g.Properties) {
    out.properties = Object.fromEntries(
      Object.entries(g.Properties as Record<string, Go>).map(([k, v]) => [k, fromGoNested(v)]),
    );
  }
  const ap = g.AdditionalProperties as Go | undefined;
  if (ap) out.additionalProperties = fromGoNested((ap.Structural as Go | undefined) ?? ap);
  return out;
}

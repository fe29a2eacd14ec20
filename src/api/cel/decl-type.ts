/**
 * The CEL type of a structural schema node, with the size bounds the cost estimator uses, as
 * upstream's SchemaDeclType builds it (k8s.io/apiserver pkg/cel/common/schemas.go, types.go,
 * escaping.go; apiextensions-apiserver schema/cel/model WithTypeAndObjectMeta): objects become
 * object types whose field names are escaped (`__dash__`, `__dot__`, `__slash__`,
 * `__underscores__`, `__in__`...), `additionalProperties` maps, arrays lists, int-or-string `dyn`,
 * `format: byte|duration|date|date-time` bytes, durations and timestamps. Unescapable names and
 * fields without a type (preserve-unknown-fields) are invisible to rules.
 */
import type { Structural } from '../crd-schema/types.js';
import { BOOL, BYTES, type CelType, DOUBLE, DURATION, DYN, INT, STRING, TIMESTAMP, listOf, mapOf } from './types.js';

/** A CEL type with upstream's DeclType bounds. */
export interface DeclType {
  readonly cel: CelType;
  /** Max length (strings, in bytes: runes × 4 when from maxLength), items or properties. */
  readonly maxElements: number;
  /** Smallest JSON serialization in bytes. */
  readonly minSerializedSize: number;
  /** 'string' | 'bytes' | 'duration' | 'timestamp' | 'int' | 'double' | 'bool' | 'dyn' | 'list' | 'map' | 'object'. */
  readonly kind: string;
  readonly elem?: DeclType;
  /** Object fields by escaped name, with the JSON property name. */
  readonly fields?: ReadonlyMap<string, { readonly type: DeclType; readonly jsonName: string }>;
  /** The schema the type was built from (with TypeMeta/ObjectMeta at a resource root). */
  readonly schema: Structural;
}

/** celconfig.MaxRequestSizeBytes. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const NAME_MAX_LENGTH = 253;

/** CEL's reserved words, escaped as `__word__` in property names. */
export const RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);

/** The field of an object type named `field` in a rule: itself, or a reserved word's escaped form (1.28+). */
export function fieldName(fields: { has(k: string): boolean }, field: string): string {
  return !fields.has(field) && RESERVED.has(field) ? `__${field}__` : field;
}

/** Escape a property name for CEL (upstream cel.Escape); undefined when it cannot be escaped. */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0 || /^[0-9]/.test(ident)) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (/[^a-zA-Z0-9_./-]/.test(ident)) return undefined;
  return ident.replace(/__|[-./]/g, (s) =>
    s === '__' ? '__underscores__' : s === '.' ? '__dot__' : s === '-' ? '__dash__' : '__slash__',
  );
}

const clamp0 = (n: number): number => Math.max(0, n);
const simple = (cel: CelType, kind: string, min: number, max: number, schema: Structural): DeclType => ({
  cel,
  kind,
  minSerializedSize: min,
  maxElements: max,
  schema,
});

/** Upstream's WithTypeAndObjectMeta: the schema of a resource root as rules see it. */
export function withTypeAndObjectMeta(s: Structural): Structural {
  const p = s.properties ?? {};
  const t = (x?: Structural) => x?.generic?.type;
  if (
    t(p.kind) === 'string' &&
    t(p.apiVersion) === 'string' &&
    t(p.metadata) === 'object' &&
    t(p.metadata?.properties?.name) === 'string' &&
    t(p.metadata?.properties?.generateName) === 'string'
  ) {
    return s;
  }
  const str: Structural = { generic: { type: 'string' } };
  const capped = (x: Structural | undefined, max: number): Structural => {
    const ml = x?.valueValidation?.maxLength;
    return { generic: { type: 'string' }, valueValidation: { maxLength: ml !== undefined && ml < max ? ml : max } };
  };
  const meta = p.metadata?.properties;
  return {
    ...s,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: {
        generic: { type: 'object' },
        properties: {
          name: capped(meta?.name, NAME_MAX_LENGTH),
          generateName: capped(meta?.generateName, NAME_MAX_LENGTH - 1),
        },
      },
    },
  };
}

/**
 * The DeclType of `s` (undefined when rules cannot see it), naming object types `typeName`,
 * `typeName.field`, `typeName.@idx`, `typeName.@elem` as upstream's MaybeAssignTypeName does.
 */
export function schemaDeclType(s: Structural, isResourceRoot: boolean, typeName = 'object'): DeclType | undefined {
  if (s.extensions?.xIntOrString) {
    return simple(DYN, 'dyn', 1, MAX_REQUEST_SIZE_BYTES - 2, s);
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  const vv = s.valueValidation ?? {};
  switch (s.generic?.type) {
    case 'array': {
      if (!s.items) return undefined;
      const elem = schemaDeclType(s.items, !!s.items.extensions?.xEmbeddedResource, `${typeName}.@idx`);
      if (!elem) return undefined;
      const max =
        vv.maxItems !== undefined
          ? clamp0(vv.maxItems)
          : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 1));
      return { cel: listOf(elem.cel), kind: 'list', elem, minSerializedSize: 2, maxElements: max, schema: s };
    }
    case 'object': {
      const ap = s.generic.additionalProperties?.structural;
      if (ap) {
        const elem = schemaDeclType(ap, !!ap.extensions?.xEmbeddedResource, `${typeName}.@elem`);
        if (!elem) return undefined;
        const max =
          vv.maxProperties !== undefined
            ? clamp0(vv.maxProperties)
            : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 6));
        return { cel: mapOf(STRING, elem.cel), kind: 'map', elem, minSerializedSize: 2, maxElements: max, schema: s };
      }
      const required = new Set(vv.required ?? []);
      const fields = new Map<string, { type: DeclType; jsonName: string }>();
      let min = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const escaped = escapeName(name);
        const ft = schemaDeclType(prop, !!prop.extensions?.xEmbeddedResource, `${typeName}.${escaped ?? name}`);
        if (!ft) continue;
        if (escaped) fields.set(escaped, { type: ft, jsonName: name });
        if (required.has(name) && prop.generic?.default === undefined) min += name.length + ft.minSerializedSize + 4;
      }
      const celFields = new Map([...fields].map(([k, v]) => [k, v.type.cel]));
      return {
        cel: { kind: 'object', name: typeName, fields: celFields },
        kind: 'object',
        fields,
        minSerializedSize: min,
        maxElements: 0,
        schema: s,
      };
    }
    case 'string':
      switch (vv.format) {
        case 'byte':
          return simple(BYTES, 'bytes', MIN_STRING_SIZE, vv.maxLength ?? MAX_REQUEST_SIZE_BYTES - 2, s);
        case 'duration':
          return simple(DURATION, 'duration', MIN_DURATION_SIZE_JSON, MAX_DURATION_SIZE_JSON, s);
        case 'date':
          return simple(TIMESTAMP, 'timestamp', JSON_DATE_SIZE, JSON_DATE_SIZE, s);
        case 'date-time':
          return simple(TIMESTAMP, 'timestamp', MIN_DATETIME_SIZE_JSON, MAX_DATETIME_SIZE_JSON, s);
      }
      return simple(STRING, 'string', MIN_STRING_SIZE, stringMax(s), s);
    case 'boolean':
      return simple(BOOL, 'bool', 4, 0, s);
    case 'number':
      return simple(DOUBLE, 'double', 1, 0, s);
    case 'integer':
      return simple(INT, 'int', 1, 0, s);
  }
  return undefined;
}

function stringMax(s: Structural): number {
  const vv = s.valueValidation ?? {};
  if (vv.maxLength !== undefined) return clamp0(vv.maxLength) * 4;
  if (vv.enum?.length) return Math.max(0, ...vv.enum.map((e) => (typeof e === 'string' ? e.length : 0)));
  return MAX_REQUEST_SIZE_BYTES - 2;
}

/**
 * A decoded JSON value seen through its DeclType as a CEL value, as upstream's UnstructuredToVal
 * does (apiextensions-apiserver pkg/apiserver/schema/cel/values.go, k8s.io/apiserver
 * pkg/cel/common/values.go): integers become int (int64), numbers double, `format: byte` strings
 * bytes, `duration` durations, `date`/`date-time` timestamps, objects objects with escaped field
 * names (fields the schema does not declare are invisible, null fields absent), maps maps,
 * int-or-string int or string. Data that does not fit its schema becomes an error value where it
 * sits (`invalid data, expected a map for the provided schema with type=object`), seen only by
 * rules that reach it, as upstream's lazy values behave.
 */
import { parseGoDurationNanos } from '../go-duration.js';
import type { DeclType } from './decl-type.js';
import { CelDuration, CelErr, CelMap, CelObject, CelTimestamp, type Value, withListKind } from './values.js';

/** Convert `v` (JSON) with `t`; a CelErr for a value its format cannot parse. */
export function toValue(v: unknown, t: DeclType): Value | CelErr {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'dyn':
      if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
      if (typeof v === 'string') return v;
      return new CelErr('invalid data, expected XIntOrString value to be either a string or integer');
    case 'int':
      return typeof v === 'number' ? BigInt(Math.trunc(v)) : (v as Value);
    case 'double':
      return typeof v === 'number' ? v : (v as Value);
    case 'bytes':
      return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : (v as Value);
    case 'duration':
      if (typeof v !== 'string') return v as Value;
      try {
        return new CelDuration(parseGoDurationNanos(v));
      } catch (e) {
        return new CelErr(e instanceof Error ? e.message : String(e));
      }
    case 'timestamp':
      return typeof v === 'string' ? parseTimestamp(v) : (v as Value);
    case 'list': {
      if (!Array.isArray(v))
        return new CelErr('invalid data, expected an array for the provided schema with type=array');
      const nullable = !!t.elem!.schema.generic?.nullable;
      const out = v.map((x) =>
        x === null && !nullable && t.elem!.kind !== 'dyn'
          ? new CelErr('invalid data, got null for schema with nullable=false')
          : toValue(x, t.elem!),
      ) as Value[];
      const lt = t.schema.extensions?.xListType;
      return lt === 'set' || lt === 'map'
        ? withListKind(out, { type: lt, keys: t.schema.extensions?.xListMapKeys })
        : out;
    }
    case 'map': {
      if (!isObject(v)) return new CelErr('invalid data, expected a map for the provided schema with type=object');
      const m = new CelMap();
      for (const [k, x] of Object.entries(v)) m.entries.set(`s${k}`, [k, toValue(x, t.elem!) as Value]);
      return m;
    }
    case 'object': {
      if (!isObject(v)) return new CelErr('invalid data, expected a map for the provided schema with type=object');
      const fields = new Map<string, Value>();
      for (const [name, f] of t.fields ?? []) {
        if (!(f.jsonName in v) || v[f.jsonName] === null) continue;
        fields.set(name, toValue(v[f.jsonName], f.type) as Value);
      }
      return new CelObject(t.cel.kind === 'object' ? t.cel.name : 'object', fields, v);
    }
    default:
      return v as Value;
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** RFC 3339 date-time or full-date as a timestamp (nanosecond precision). */
export function parseTimestamp(s: string): CelTimestamp | CelErr {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2}))?$/.exec(s);
  if (!m) return new CelErr(`failed to parse timestamp "${s}"`);
  const [, y, mo, d, h = '0', mi = '0', se = '0', frac = '', tz = 'Z'] = m;
  const days = [
    31,
    Number(y) % 4 === 0 && (Number(y) % 100 !== 0 || Number(y) % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  if (
    Number(mo) < 1 ||
    Number(mo) > 12 ||
    Number(d) < 1 ||
    Number(d) > days[Number(mo) - 1]! ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(se) > 59
  ) {
    return new CelErr(`failed to parse timestamp "${s}"`);
  }
  const dt = new Date(0);
  dt.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  dt.setUTCHours(Number(h), Number(mi), Number(se), 0);
  const ms = dt.getTime();
  if (Number.isNaN(ms)) return new CelErr(`failed to parse timestamp "${s}"`);
  let offsetMin = 0;
  if (tz !== 'Z' && tz !== 'z') {
    const sign = tz.startsWith('-') ? -1 : 1;
    offsetMin = sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  }
  const ns = (BigInt(ms) - BigInt(offsetMin) * 60_000n) * 1_000_000n + BigInt(frac.padEnd(9, '0') || '0');
  return new CelTimestamp(ns, offsetMin);
}

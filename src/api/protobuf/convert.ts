/**
 * JSON form <-> protobufjs message objects, as upstream's generated marshallers and Go's JSON
 * encoder relate them: Time is RFC 3339 at second precision, MicroTime with microseconds,
 * Quantity and IntOrString are scalars, Verbs is a string list, bytes are base64, int64 are
 * numbers, inlined messages (`~`) are flattened into their parent, and zero values read from
 * the wire are dropped unless the field keeps them (`!`, Go pointers and non-omitempty fields).
 * Pure; no I/O.
 */
import type protobuf from 'protobufjs';
import { recordOf } from '../json.js';
import type { FieldTraits } from './messages.js';

type Json = Record<string, unknown>;
/** Traits of every field of the compiled root (see messages.ts). */
export type Traits = ReadonlyMap<protobuf.Field, FieldTraits>;

/** `2018-03-26T15:04:05.123456Z` -> seconds and nanoseconds since the epoch (throws on a bad time). */
function parseTime(value: string): { seconds: number; nanos: number } {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`invalid time "${value}"`);
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: Number((fraction + '000000000').slice(0, 9)) };
}

function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${base}Z`;
}

/** The type of `field`: a scalar's name, or the name of its message within its package (`Time`, `Quantity`). */
const typeName = (field: protobuf.Field): string => field.resolvedType?.name ?? field.type;

/** One JSON value -> the protobufjs value of a field of type `type`. */
function valueToWire(field: protobuf.Field, value: unknown, traits: Traits): unknown {
  switch (typeName(field)) {
    case 'bytes':
      return Buffer.from(String(value), 'base64');
    case 'Time':
    case 'MicroTime':
      return parseTime(String(value));
    case 'Quantity':
      return { string: String(value) };
    case 'IntOrString':
      return typeof value === 'number' ? { type: 0, intVal: value } : { type: 1, strVal: String(value) };
    // Messages holding one string list that JSON writes as the bare list (rbac's Verbs,
    // authentication's and certificates' ExtraValue).
    case 'Verbs':
    case 'ExtraValue':
      return { items: value };
    case 'FieldsV1':
    case 'RawExtension':
      return { raw: Buffer.from(JSON.stringify(value)) };
    case 'int32':
    case 'int64':
      if (typeof value !== 'number') throw new Error(`${field.name}: expected a number, got ${JSON.stringify(value)}`);
      return value;
    default:
      if (field.resolvedType && 'fieldsArray' in field.resolvedType)
        return toWire(field.resolvedType, recordOf(value), traits);
      return value;
  }
}

/**
 * The protobufjs object for `json` as message `type`. Fields the message does not define are
 * left out. Throws Error when a value has the wrong shape.
 */
export function toWire(type: protobuf.Type, json: Json, traits: Traits): Json {
  const out: Json = {};
  for (const field of type.fieldsArray) {
    if (traits.get(field)!.inline) {
      if (!field.resolvedType || !('fieldsArray' in field.resolvedType))
        throw new Error(`${field.name}: an inlined field must be a message`);
      out[field.name] = toWire(field.resolvedType, json, traits);
      continue;
    }
    const value = json?.[field.name];
    if (value === undefined || value === null) continue;
    if (field.map) {
      out[field.name] = Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== null)
          .map(([k, v]) => [k, valueToWire(field, v, traits)]),
      );
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new Error(`${field.name}: expected a list`);
      out[field.name] = value.map((v) => valueToWire(field, v, traits));
    } else {
      out[field.name] = valueToWire(field, value, traits);
    }
  }
  return out;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
}

/** The JSON trie a FieldsV1's raw bytes hold. Throws Error when they are not a JSON object. */
function parseFieldsV1(raw: Uint8Array | undefined): unknown {
  const text = raw ? Buffer.from(raw).toString('utf8') : '{}';
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    throw new Error('fieldsV1: not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('fieldsV1: not a JSON object');
  return value;
}

/**
 * The JSON value a RawExtension's raw bytes hold (ControllerRevision data; upstream's JSON
 * encoding writes them as they are), undefined when empty. Throws Error when they are not JSON.
 */
function parseRawExtension(raw: Uint8Array | undefined): unknown {
  if (!raw?.length) return undefined;
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    throw new Error('raw: not JSON');
  }
}

/** One decoded value -> JSON; `undefined` for a value JSON leaves out (zero Time, empty Quantity). */
function valueFromWire(field: protobuf.Field, value: unknown, traits: Traits): unknown {
  const m = recordOf(value);
  switch (typeName(field)) {
    case 'bytes':
      return Buffer.from(value instanceof Uint8Array ? value : new Uint8Array()).toString('base64');
    case 'int64':
      return Number(value);
    case 'Time':
    case 'MicroTime':
      return Number(m.seconds ?? 0) === 0 && Number(m.nanos ?? 0) === 0
        ? undefined
        : formatTime(Number(m.seconds ?? 0), Number(m.nanos ?? 0), typeName(field) === 'MicroTime');
    case 'Quantity':
      return m.string ? m.string : undefined;
    case 'IntOrString':
      return Number(m.type ?? 0) === 1 ? (m.strVal ?? '') : (m.intVal ?? 0);
    case 'Verbs':
    case 'ExtraValue':
      return Array.isArray(m.items) ? m.items : [];
    case 'FieldsV1':
      return parseFieldsV1(m.raw instanceof Uint8Array ? m.raw : undefined);
    case 'RawExtension':
      return parseRawExtension(m.raw instanceof Uint8Array ? m.raw : undefined);
    default:
      if (field.resolvedType && 'fieldsArray' in field.resolvedType) return fromWire(field.resolvedType, m, traits);
      return value;
  }
}

/** The JSON form of a decoded message (see the file comment). Throws Error on bad values. */
export function fromWire(type: protobuf.Type, message: Json, traits: Traits): Json {
  const out: Json = {};
  for (const field of type.fieldsArray) {
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = message[field.name];
    if (value === undefined || value === null) continue;
    const { keepZero, inline } = traits.get(field)!;
    let json: unknown;
    if (field.map) {
      const entries = Object.entries(value);
      if (entries.length === 0 && !keepZero) continue;
      json = Object.fromEntries(entries.map(([k, v]) => [k, valueFromWire(field, v, traits) ?? '']));
    } else if (field.repeated) {
      if (!Array.isArray(value)) throw new Error(`${field.name}: expected a list`);
      json = value.map((v) => valueFromWire(field, v, traits));
    } else {
      json = valueFromWire(field, value, traits);
    }
    if (json === undefined) continue;
    if (inline) {
      Object.assign(out, json);
      continue;
    }
    if (isZero(json) && !keepZero) continue;
    out[field.name] = json;
  }
  return out;
}

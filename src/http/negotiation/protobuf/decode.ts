/**
 * Decoding protobuf request bodies (upstream k8s.io/apimachinery runtime/serializer/protobuf):
 * the 4-byte magic `k8s\0`, a runtime.Unknown envelope naming apiVersion and kind, and the
 * object's own message in `raw`. The result is the object as JSON would carry it: Go zero
 * values dropped (as `omitempty` does), times as RFC 3339, quantities and int-or-string as
 * scalars, bytes as base64.
 */
import type protobuf from 'protobufjs';
import type { ApiObject } from '../../../api/object.js';
import { rfc3339 } from '../../../api/object.js';
import { badRequest, unsupportedMediaType } from '../../../errors/api-error.js';
import { POINTER_FIELDS, PROTO_ROOT } from './messages.js';

/** `k8s\0`: upstream's protobuf magic prefix. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
export const PROTOBUF_TYPES = ['application/vnd.ck.protobuf', 'application/vnd.kubernetes.protobuf'] as const;

/** Convert a decoded message to its JSON form (see the file comment). */
function toJson(type: protobuf.Type, message: protobuf.Message): unknown {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    // Only fields present on the wire (protobufjs keeps defaults on the prototype).
    if (!Object.prototype.hasOwnProperty.call(message, field.name)) continue;
    const value = (message as unknown as Record<string, unknown>)[field.name];
    if (value === undefined || value === null) continue;
    const json = convert(field, value);
    const empty = json === '' || json === 0 || json === false || (typeof json === 'object' && json !== null && Object.keys(json).length === 0);
    if (!empty || (POINTER_FIELDS.has(field.name) && json !== '')) out[field.name] = json;
  }
  return out;
}

function convert(field: protobuf.Field, value: unknown): unknown {
  if (field.map) {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scalarOrMessage(field, v)]);
    return Object.fromEntries(entries);
  }
  if (field.repeated) return (value as unknown[]).map((v) => scalarOrMessage(field, v));
  return scalarOrMessage(field, value);
}

function scalarOrMessage(field: protobuf.Field, value: unknown): unknown {
  if (field.type === 'bytes') return Buffer.from(value as Uint8Array).toString('base64');
  if (field.type === 'int64') return Number(value);
  if (!field.resolvedType || !('fieldsArray' in field.resolvedType)) return value;
  const type = field.resolvedType as protobuf.Type;
  const m = value as Record<string, unknown>;
  switch (type.name) {
    case 'Time':
      return m.seconds === undefined || Number(m.seconds) === 0 ? '' : rfc3339(new Date(Number(m.seconds) * 1000));
    case 'Quantity':
      return m.string ?? '';
    case 'IntOrString':
      return Number(m.type ?? 0) === 1 ? (m.strVal ?? '') : Number(m.intVal ?? 0);
    default:
      return toJson(type, value as protobuf.Message);
  }
}

/**
 * Decode a protobuf body into an object. Throws ApiError 400 for a malformed body, 415 for a
 * kind this server has no protobuf definition for yet.
 */
export function decodeProtobufObject(body: Buffer): ApiObject {
  if (body.length < 4 || !body.subarray(0, 4).equals(PROTOBUF_MAGIC)) throw badRequest('protobuf body does not start with the k8s\\0 magic prefix');
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array;
  try {
    const unknown = PROTO_ROOT.lookupType('Unknown').decode(body.subarray(4)) as unknown as { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Uint8Array };
    apiVersion = unknown.typeMeta?.apiVersion ?? '';
    kind = unknown.typeMeta?.kind ?? '';
    raw = unknown.raw ?? new Uint8Array();
  } catch (err) {
    throw badRequest(`couldn't decode the protobuf envelope: ${(err as Error).message}`);
  }
  let type: protobuf.Type;
  try {
    type = PROTO_ROOT.lookupType(kind);
  } catch {
    throw unsupportedMediaType(`application/vnd.kubernetes.protobuf (kind ${kind || 'unset'})`, ['application/json', 'application/yaml']);
  }
  try {
    const obj = toJson(type, type.decode(raw)) as ApiObject;
    return { apiVersion, kind, ...obj, metadata: obj.metadata ?? {} };
  } catch (err) {
    throw badRequest(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: ${(err as Error).message}`);
  }
}

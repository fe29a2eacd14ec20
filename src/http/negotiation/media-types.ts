/**
 * Content negotiation for responses and decoding of request bodies (upstream
 * k8s.io/apiserver pkg/endpoints/handlers/negotiation). JSON, YAML and protobuf are served
 * (protobuf under the spec's name `application/vnd.ck.protobuf` and upstream's
 * `application/vnd.kubernetes.protobuf`, answered under the name the client asked for);
 * watches stream JSON or length-framed protobuf.
 */
import { stringify as stringifyYaml } from 'yaml';
import { badRequest, notAcceptable, unsupportedMediaType } from '../../errors/api-error.js';
import { parseJsonText, parseYamlText } from './safe-decode.js';

/** Response formats; the two protobuf formats differ only in the media type they answer with. */
export type Format = 'json' | 'yaml' | 'protobuf' | 'ck-protobuf';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
/** Media types a non-streaming response may take, as listed in 406 answers. */
export const CK_PROTOBUF_TYPE = 'application/vnd.ck.protobuf';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';
/** Both names of the protobuf media type (request bodies and Accept). */
export const PROTOBUF_TYPES = [CK_PROTOBUF_TYPE, PROTOBUF_TYPE] as const;
export const RESPONSE_TYPES = [JSON_TYPE, YAML_TYPE, CK_PROTOBUF_TYPE, PROTOBUF_TYPE] as const;
/** Media types a watch may take. */
export const WATCH_TYPES = ['application/json;stream=watch', `${CK_PROTOBUF_TYPE};stream=watch`, `${PROTOBUF_TYPE};stream=watch`] as const;

/** True for the protobuf formats. */
export function isProtobuf(format: Format): format is 'protobuf' | 'ck-protobuf' {
  return format === 'protobuf' || format === 'ck-protobuf';
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

/** Media ranges of an Accept header, most preferred first (by q-value, then by position). */
function parseAccept(header: string): MediaRange[] {
  const ranges = header
    .split(',')
    .map((part) => {
      const [type, ...params] = part.split(';').map((s) => s.trim());
      const p: Record<string, string> = {};
      for (const kv of params) {
        const eq = kv.indexOf('=');
        if (eq > 0) p[kv.slice(0, eq).trim()] = kv.slice(eq + 1).trim();
      }
      return { type: type.toLowerCase(), params: p };
    })
    .filter((r) => r.type !== '' && Number(r.params.q ?? 1) > 0);
  const q = (r: MediaRange) => (Number.isFinite(Number(r.params.q ?? 1)) ? Number(r.params.q ?? 1) : 1);
  return ranges.map((r, i) => ({ r, i })).sort((a, b) => q(b.r) - q(a.r) || a.i - b.i).map(({ r }) => r);
}

/**
 * Choose the response format from an Accept header. Ranges asking for a conversion we do not
 * offer (`as=Table`, ...) are skipped so the client's plain fallback is used. Throws ApiError
 * 406 when nothing acceptable remains.
 */
export function negotiate(accept: string | undefined, watch = false): Format {
  if (!accept || accept.trim() === '') return 'json';
  // A client sends the same Accept header with every request: remember the answers (bounded in
  // count and length, as the header is the client's to choose).
  if (accept.length > MEMO_KEY_LENGTH) return choose(accept, watch);
  const memo = watch ? negotiatedWatches : negotiated;
  const known = memo.get(accept);
  if (known) return known;
  const format = choose(accept, watch);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(accept, format);
  return format;
}

const MEMO_SIZE = 256;
const MEMO_KEY_LENGTH = 512;
const negotiated = new Map<string, Format>();
const negotiatedWatches = new Map<string, Format>();

/** The format `negotiate` chooses, without the memo. */
function choose(accept: string, watch: boolean): Format {
  for (const r of parseAccept(accept)) {
    if (r.params.as) continue;
    if (r.type === '*/*' || r.type === 'application/*' || r.type === JSON_TYPE) return 'json';
    if (!watch && (r.type === YAML_TYPE || r.type === 'text/yaml')) return 'yaml';
    if (r.type === PROTOBUF_TYPE) return 'protobuf';
    if (r.type === CK_PROTOBUF_TYPE) return 'ck-protobuf';
  }
  throw notAcceptable(watch ? WATCH_TYPES : RESPONSE_TYPES);
}

/** The Content-Type header of a format. */
export function contentTypeOf(format: Format, watch = false): string {
  const type = { json: JSON_TYPE, yaml: YAML_TYPE, protobuf: PROTOBUF_TYPE, 'ck-protobuf': CK_PROTOBUF_TYPE }[format];
  return watch ? `${type};stream=watch` : type;
}

/** Serialize a response body as JSON or YAML. `pretty` indents JSON as upstream's `?pretty=true`. */
export function encodeBody(value: unknown, format: 'json' | 'yaml', pretty: boolean): string {
  if (format === 'yaml') return stringifyYaml(value, { aliasDuplicateObjects: false });
  return pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value);
}

/** Body media types accepted on create/update (PATCH has its own list). */
export const BODY_TYPES = [JSON_TYPE, YAML_TYPE] as const;

/** The media type of a Content-Type header without parameters, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Decode a create/update body given as text. Throws ApiError 415 for other media types and
 * 400 for malformed documents and documents beyond the bounds of `api/nesting.ts` (nesting
 * deeper than 100 levels, YAML aliases beyond 100 expansions, values without a JSON form).
 */
export function decodeBody(contentType: string | undefined, raw: string, accepted: readonly string[] = BODY_TYPES): unknown {
  const type = mediaTypeOf(contentType) || JSON_TYPE;
  if (!accepted.includes(type) && !(type === 'text/yaml' && accepted.includes(YAML_TYPE))) {
    throw unsupportedMediaType(type, accepted);
  }
  if (raw.trim() === '') throw badRequest('the request body is empty');
  return type === YAML_TYPE || type === 'text/yaml' ? parseYamlText(raw, 'the request body') : parseJsonText(raw, 'the request body');
}

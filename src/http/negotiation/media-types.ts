/**
 * Content negotiation for responses and decoding of request bodies (upstream
 * k8s.io/apiserver pkg/endpoints/handlers/negotiation). JSON and YAML are served; the
 * spec's protobuf type is recognised (and reported as not yet acceptable here).
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { badRequest, notAcceptable, unsupportedMediaType } from '../../errors/api-error.js';

export type Format = 'json' | 'yaml';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
/** Media types a non-streaming response may take, as listed in 406 answers. */
export const RESPONSE_TYPES = [JSON_TYPE, YAML_TYPE] as const;
/** Media types a watch may take. */
export const WATCH_TYPES = ['application/json;stream=watch'] as const;

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
  for (const r of parseAccept(accept)) {
    if (r.params.as) continue;
    if (r.type === '*/*' || r.type === 'application/*' || r.type === JSON_TYPE) return 'json';
    if (!watch && (r.type === YAML_TYPE || r.type === 'text/yaml')) return 'yaml';
  }
  throw notAcceptable(watch ? WATCH_TYPES : RESPONSE_TYPES);
}

/** The Content-Type header of a format. */
export function contentTypeOf(format: Format): string {
  return format === 'yaml' ? YAML_TYPE : JSON_TYPE;
}

/** Serialize a response body. `pretty` indents JSON as upstream's `?pretty=true`. */
export function encodeBody(value: unknown, format: Format, pretty: boolean): string {
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
 * 400 for malformed documents.
 */
export function decodeBody(contentType: string | undefined, raw: string, accepted: readonly string[] = BODY_TYPES): unknown {
  const type = mediaTypeOf(contentType) || JSON_TYPE;
  if (!accepted.includes(type) && !(type === 'text/yaml' && accepted.includes(YAML_TYPE))) {
    throw unsupportedMediaType(type, accepted);
  }
  if (raw.trim() === '') throw badRequest('the request body is empty');
  try {
    return type === YAML_TYPE || type === 'text/yaml' ? parseYaml(raw) : JSON.parse(raw);
  } catch (err) {
    throw badRequest(`couldn't decode the request body: ${(err as Error).message.split('\n')[0]}`);
  }
}

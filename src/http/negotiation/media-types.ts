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
export const WATCH_TYPES = [
  'application/json;stream=watch',
  `${CK_PROTOBUF_TYPE};stream=watch`,
  `${PROTOBUF_TYPE};stream=watch`,
] as const;

/** True for the protobuf formats. */
export function isProtobuf(format: Format): format is 'protobuf' | 'ck-protobuf' {
  return format === 'protobuf' || format === 'ck-protobuf';
}

/** One clause of an Accept header (goautoneg Accept): type, subtype, q and the other parameters. */
interface Clause {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

/** Go's strconv.ParseFloat as goautoneg reads a q-value: anything it refuses is 0. */
function qValue(text: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? -Infinity : Infinity;
  return 0;
}

/**
 * The clauses of an Accept header in goautoneg's order (ParseAccept, as upstream negotiates
 * with): parts without a `/` are dropped (but `*`), types are compared as sent (not lower-cased),
 * q=0 clauses are kept, and the list is insertion-sorted with goautoneg's Less: a higher q
 * first, else a concrete type before `*`, else a concrete subtype before `*`.
 */
export function parseAccept(header: string): Clause[] {
  const clauses: Clause[] = [];
  for (const rawPart of header.split(',')) {
    const [range = '', ...rawParams] = rawPart.replace(/^ +| +$/g, '').split(';');
    const slash = range.split('/');
    const type = slash[0]!.replace(/^ +| +$/g, '');
    let subtype: string;
    if (slash.length === 1 && type === '*') subtype = '*';
    else if (slash.length === 2) subtype = slash[1]!.replace(/^ +| +$/g, '');
    else continue;
    let q = 1;
    const params: Record<string, string> = {};
    for (const param of rawParams) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = param.slice(0, eq).replace(/^ +| +$/g, '');
      if (token === 'q') q = qValue(param.slice(eq + 1));
      else params[token] = param.slice(eq + 1).replace(/^ +| +$/g, '');
    }
    clauses.push({ type, subtype, q, params });
  }
  const less = (a: Clause, b: Clause) =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subtype !== '*' && b.subtype === '*');
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--)
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
  }
  return clauses;
}

/** The serializers in upstream's order (JSON first), and whether each can stream a watch. */
const SERIALIZERS: ReadonlyArray<{
  readonly format: Format;
  readonly type: string;
  readonly subtype: string;
  readonly stream: boolean;
}> = [
  { format: 'json', type: 'application', subtype: 'json', stream: true },
  { format: 'yaml', type: 'application', subtype: 'yaml', stream: false },
  { format: 'protobuf', type: 'application', subtype: 'vnd.kubernetes.protobuf', stream: true },
  { format: 'ck-protobuf', type: 'application', subtype: 'vnd.ck.protobuf', stream: true },
];

/** What a negotiation chose: the format, and whether the clause asked for `pretty=1`. */
export interface Negotiated {
  readonly format: Format;
  readonly pretty: boolean;
}

/**
 * Choose the response format from an Accept header. Ranges asking for a conversion we do not
 * offer (`as=Table`, ...) are skipped so the client's plain fallback is used. Throws ApiError
 * 406 when nothing acceptable remains.
 */
export function negotiate(accept: string | undefined, watch = false): Format {
  return negotiated(accept, watch).format;
}

/**
 * `negotiate` for a resource served in JSON and YAML only (custom resources, upstream
 * crdHandler's serializers): protobuf ranges are skipped, so `application/vnd.kubernetes.protobuf`
 * alone is 406 and a client's JSON fallback is chosen. Throws ApiError 406.
 */
export function negotiateWithoutProtobuf(accept: string | undefined, watch = false): Format {
  return !accept || accept.trim() === '' ? 'json' : choose(accept, watch, false).format;
}

/** True when the clause `negotiate` chooses asks for indented output (`application/json;pretty=1`). */
export function acceptsPretty(accept: string | undefined): boolean {
  try {
    return negotiated(accept, false).pretty;
  } catch {
    return false;
  }
}

const JSON_CHOICE: Negotiated = Object.freeze({ format: 'json', pretty: false });

/** The negotiation of `accept`, remembered (bounded in count and length, as the header is the client's to choose). */
function negotiated(accept: string | undefined, watch: boolean): Negotiated {
  if (!accept) return JSON_CHOICE;
  if (accept.length > MEMO_KEY_LENGTH) return choose(accept, watch);
  const memo = watch ? negotiatedWatches : negotiatedObjects;
  const known = memo.get(accept);
  if (known) return known;
  const choice = choose(accept, watch);
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(accept, choice);
  return choice;
}

const MEMO_SIZE = 256;
const MEMO_KEY_LENGTH = 512;
const negotiatedObjects = new Map<string, Negotiated>();
const negotiatedWatches = new Map<string, Negotiated>();

/**
 * Upstream NegotiateMediaTypeOptions: the first clause (in goautoneg's order) that matches a
 * serializer (the same type and subtype, the same type with subtype `*`, or both `*`) and
 * whose parameters it accepts decides.
 * `stream=<s>` needs a streaming serializer and `s` = `watch`; `pretty=1` asks for indented
 * output. For a watch the chosen serializer must stream (upstream
 * NegotiateOutputMediaTypeStream): YAML chosen for a watch is 406, not a fallback.
 */
function choose(accept: string, watch: boolean, protobuf = true): Negotiated {
  if (accept.trim() === '') return JSON_CHOICE;
  for (const clause of parseAccept(accept)) {
    if (clause.params.as) continue;
    for (const s of SERIALIZERS) {
      if (!protobuf && isProtobuf(s.format)) continue;
      const matches =
        (clause.type === s.type && (clause.subtype === s.subtype || clause.subtype === '*')) ||
        (clause.type === '*' && clause.subtype === '*');
      if (!matches) continue;
      const stream = clause.params.stream;
      if (stream && (!s.stream || stream !== 'watch')) continue;
      if (watch && !s.stream) throw notAcceptable(WATCH_TYPES);
      return { format: s.format, pretty: clause.params.pretty === '1' };
    }
  }
  throw notAcceptable(
    watch
      ? WATCH_TYPES.filter((t) => protobuf || !isProtobufType(t))
      : RESPONSE_TYPES.filter((t) => protobuf || !isProtobufType(t)),
  );
}

function isProtobufType(type: string): boolean {
  return type.includes('protobuf');
}

const CONTENT_TYPES: Readonly<Record<Format, string>> = {
  json: JSON_TYPE,
  yaml: YAML_TYPE,
  protobuf: PROTOBUF_TYPE,
  'ck-protobuf': CK_PROTOBUF_TYPE,
};

/**
 * The Content-Type header of a format. A watch in JSON answers plain `application/json`
 * (upstream's "legacy behavior", watch.go); the protobuf formats add `;stream=watch`.
 */
export function contentTypeOf(format: Format, watch = false): string {
  const type = CONTENT_TYPES[format];
  return watch && format !== 'json' ? `${type};stream=watch` : type;
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
 * A YAML key repeated within one mapping is refused (400) unless `yamlDuplicateKeys` is
 * `'last'`: the last value is then kept, as upstream's lenient YAML decoding does.
 */
export function decodeBody(
  contentType: string | undefined,
  raw: string,
  accepted: readonly string[] = BODY_TYPES,
  yamlDuplicateKeys: 'refuse' | 'last' = 'refuse',
): unknown {
  const type = mediaTypeOf(contentType) || JSON_TYPE;
  if (!accepted.includes(type)) throw unsupportedMediaType(type, accepted);
  if (raw.trim() === '') throw badRequest('the request body is empty');
  return type === YAML_TYPE
    ? parseYamlText(raw, 'the request body', yamlDuplicateKeys === 'refuse')
    : parseJsonText(raw, 'the request body');
}

/**
 * Writing API responses: negotiated format, `pretty`, and selfLink filled in as upstream's
 * namer does (k8s.io/apiserver pkg/endpoints/handlers/namer.go).
 */
import { keep, kept, withOwn, type ApiList, type ApiObject, type ListMeta } from '../../api/object.js';
import { buildTable, type IncludeObject } from '../../api/table.js';
import { badRequest } from '../../errors/api-error.js';
import { tableRequest } from '../negotiation/table.js';
import { conversionRequest, type ConversionTarget } from '../negotiation/conversion.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ApiContext } from '../context.js';
import { acceptsPretty, contentTypeOf, encodeBody, negotiate } from '../negotiation/media-types.js';
import { encodeResponse } from '../negotiation/protobuf.js';
import { sendListBody } from './list-body.js';

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/**
 * True when output should be indented (upstream NegotiateOutputMediaType): the chosen Accept
 * clause says `pretty=1`, or `?pretty=` is a Go boolean true (any other non-empty value is
 * false), or without it the User-Agent is curl, Wget or a browser (upstream isPrettyPrint).
 */
export function wantsPretty(ctx: ApiContext): boolean {
  if (acceptsPretty(ctx.get('Accept'))) return true;
  const q = ctx.query.pretty;
  const value = Array.isArray(q) ? q[0] : q;
  if (value) return GO_TRUE.has(value);
  const ua = ctx.get('User-Agent');
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** Encode `body` in the negotiated format with `code`. Throws ApiError 406 first if needed. */
export function respond(ctx: ApiContext, code: number, body: unknown): void {
  const format = ctx.state.format ?? negotiate(ctx.get('Accept'));
  const encoded = encodeResponse(ctx.state.codec, body, format, wantsPretty(ctx));
  ctx.status = code;
  ctx.set('Content-Type', encoded.contentType);
  ctx.body = encoded.body;
}

/**
 * When the client asked for a Table (`as=Table`), answer one built from `objects` and return
 * true. `includeObject` is None, Metadata (default) or Object. Throws ApiError 400 otherwise.
 */
export function respondTable(
  ctx: ApiContext,
  store: GenericStore,
  objects: readonly ApiObject[],
  meta: ListMeta,
): boolean {
  const table = tableRequest(ctx.get('Accept'));
  if (!table) return false;
  const include = (typeof ctx.query.includeObject === 'string' ? ctx.query.includeObject : 'Metadata') as IncludeObject;
  if (!['None', 'Metadata', 'Object'].includes(include)) {
    throw badRequest(`includeObject: Unsupported value: "${include}": supported values: "Metadata", "None", "Object"`);
  }
  const body = buildTable(
    store.def.printer,
    objects.map((o) => store.present(o)),
    meta,
    table.apiVersion,
    include,
  );
  ctx.status = 200;
  ctx.set('Content-Type', table.contentType);
  ctx.body = encodeBody(body, 'json', wantsPretty(ctx));
  return true;
}

/** The groups and versions metadata-only answers come in (upstream meta.k8s.io; the spec's meta.ck.io). */
const META_GROUPS = ['meta.k8s.io', 'meta.ck.io'];
const META_VERSIONS = ['v1', 'v1beta1'];
/** The metadata-only conversion of one object (get, watch) and of a list. */
const META_FORMATS = ['json', 'yaml', 'protobuf', 'ck-protobuf'] as const;
export const PARTIAL_OBJECT: readonly ConversionTarget[] = [
  { as: 'PartialObjectMetadata', groups: META_GROUPS, versions: META_VERSIONS, formats: META_FORMATS },
];
export const PARTIAL_LIST: readonly ConversionTarget[] = [
  { as: 'PartialObjectMetadataList', groups: META_GROUPS, versions: META_VERSIONS, formats: META_FORMATS },
];

/** An object as PartialObjectMetadata in `apiVersion` (`meta.k8s.io/v1`): its metadata only. */
export function partialObjectMetadata(obj: ApiObject, apiVersion: string): ApiObject {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

/**
 * When the client asked for metadata only (`as=PartialObjectMetadata` for an object,
 * `as=PartialObjectMetadataList` for a list; upstream handlers' transformResponseObject),
 * answer it in JSON, YAML or protobuf and return true.
 */
/** Whether a read's answer is a list. */
const isApiList = (value: ApiObject | ApiList): value is ApiList => 'items' in value && Array.isArray(value.items);

export function respondMetadataOnly(ctx: ApiContext, value: ApiObject | ApiList): boolean {
  const request = conversionRequest(ctx.get('Accept'), isApiList(value) ? PARTIAL_LIST : PARTIAL_OBJECT);
  if (!request) return false;
  const apiVersion = `${request.group}/${request.version}`;
  const body = isApiList(value)
    ? {
        kind: 'PartialObjectMetadataList',
        apiVersion,
        metadata: value.metadata,
        items: value.items.map((i) => partialObjectMetadata(i, apiVersion)),
      }
    : partialObjectMetadata(value, apiVersion);
  const encoded = encodeResponse(ctx.state.codec, body, request.format, wantsPretty(ctx));
  ctx.status = 200;
  ctx.set('Content-Type', request.contentType);
  ctx.body = encoded.body;
  return true;
}

/** The URL path of an object of `store` (`/api/v1/namespaces/{ns}/pods/{name}`). */
export function objectPath(store: GenericStore, namespace: string | null | undefined, name: string): string {
  const root = store.def.group ? `/apis/${store.def.group}/${store.def.version}` : `/api/${store.def.version}`;
  const ns = store.def.namespaced && namespace ? `/namespaces/${namespace}` : '';
  return `${root}${ns}/${store.def.plural}/${name}`;
}

/** A copy of `obj` with its selfLink set. */
export function withSelfLink(store: GenericStore, obj: ApiObject): ApiObject {
  const selfLink = objectPath(store, obj.metadata.namespace, obj.metadata.name ?? '');
  return withOwn(obj, 'metadata', withOwn(obj.metadata, 'selfLink', selfLink));
}

/** Where a list item keeps its JSON (with selfLink): lists served from a watch cache encode each object once. */
const ITEM_JSON = Symbol('itemJson');

/**
 * Answer a list: a Table or metadata only when asked for, else the list with selfLinks in the
 * negotiated format. Compact JSON (what clients ask for by default) is written from each item's
 * kept encoding, so a list of cached objects costs a lookup per item, not a serialization; a
 * large one is written in batches (list-body.ts).
 */
export function respondList(ctx: ApiContext, store: GenericStore, list: ApiList): void {
  const accept = ctx.get('Accept');
  // Tables and metadata-only lists are negotiated by their own rules, before the plain formats.
  const special = tableRequest(accept) || conversionRequest(accept, PARTIAL_LIST);
  if (special || wantsPretty(ctx) || (ctx.state.format ?? negotiate(accept)) !== 'json') {
    const full = listWithSelfLinks(store, list, ctx.path);
    if (!respondTable(ctx, store, full.items, full.metadata) && !respondMetadataOnly(ctx, full))
      respond(ctx, 200, full);
    return;
  }
  const head = JSON.stringify({
    kind: list.kind,
    apiVersion: list.apiVersion,
    metadata: { selfLink: ctx.path, ...list.metadata },
  });
  const items = new Array<Buffer>(list.items.length);
  for (let i = 0; i < items.length; i++) {
    const item = list.items[i];
    items[i] =
      kept<Buffer>(item, ITEM_JSON) ?? keep(item, ITEM_JSON, Buffer.from(JSON.stringify(withSelfLink(store, item))));
  }
  ctx.status = 200;
  ctx.set('Content-Type', contentTypeOf('json'));
  sendListBody(ctx, Buffer.from(`${head.slice(0, -1)},"items":[`), items);
}

/** A list with its selfLink (the request path) and each item's selfLink set. */
export function listWithSelfLinks(store: GenericStore, list: ApiList, path: string): ApiList {
  return {
    ...list,
    metadata: { selfLink: path, ...list.metadata },
    items: list.items.map((i) => withSelfLink(store, i)),
  };
}

/**
 * Reading an object body for create and update: decode, infer missing apiVersion/kind from
 * the URL, and reject mismatches with upstream's 400 messages.
 */
import { isRecord } from '../../api/json.js';
import { isApiObject, type ApiObject } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { decodeBody } from '../negotiation/media-types.js';
import { decodeProtobufBody } from '../negotiation/protobuf.js';
import { decodeAs, type KnownKinds } from '../type-meta.js';

/** The request body decoded by its Content-Type: protobuf, JSON or YAML. Throws ApiError 415 (media type), 400 (empty or malformed). */
export function decodeRequestBody(ctx: ApiContext): unknown {
  const buffer = ctx.state.rawBuffer;
  return buffer
    ? decodeProtobufBody(ctx.state.codec, buffer)
    : decodeBody(ctx.get('Content-Type'), ctx.state.rawBody ?? '');
}

/** True when the request carries a body (of any media type). */
export function hasRequestBody(ctx: ApiContext): boolean {
  return Boolean(ctx.state.rawBuffer?.length || ctx.state.rawBody?.trim());
}

/**
 * The request body as an object of `kind` in `endpointVersion` (or in one of
 * `acceptedVersions`, as sent), missing kind and apiVersion taken from the URL. Throws ApiError 415 (media type), 400 (malformed, not an object, or of
 * another kind or version, with upstream's messages: see checkTypeMeta). `knows` tells
 * which kinds the server knows in which versions.
 */
export function readObjectBody(
  ctx: ApiContext,
  kind: string,
  endpointVersion: string,
  knows: KnownKinds,
  acceptedVersions: readonly string[] = [],
): ApiObject {
  const body = decodeRequestBody(ctx);
  if (!isRecord(body)) {
    throw badRequest(
      `${kind} in version "${endpointVersion}" cannot be handled as a ${kind}: the body is not an object`,
    );
  }
  // A subresource create may take its kind in other versions too (SubresourceDefinition.acceptedVersions).
  const sent = body.apiVersion;
  const apiVersion =
    typeof sent === 'string' && acceptedVersions.includes(sent) && (body.kind ?? kind) === kind
      ? sent
      : endpointVersion;
  checkTypeMeta(body, kind, apiVersion, knows);
  // Completed in place (the body was decoded for this call alone): the same keys in the same
  // order as a copy `{ ...body, apiVersion, kind, metadata }` would have.
  const obj = body;
  obj.apiVersion = apiVersion;
  obj.kind = kind;
  if (obj.metadata === undefined) obj.metadata = {};
  if (!isApiObject(obj))
    throw badRequest(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: metadata must be an object`);
  return obj;
}

/**
 * Check a body's kind and apiVersion against the endpoint's, as upstream's create.go and
 * update.go decode it (the JSON serializer defaults missing parts from the URL, the versioning
 * codec converts, rest.go transformDecodeError words the failure):
 * - a kind the server does not know in that version: 400 `<Kind> in version "<v>" cannot be
 *   handled as a <URL kind>: no kind "<Kind>" is registered for version "<apiVersion>" ...`;
 * - another known kind: 400 `... cannot be handled as a <URL kind>: converting (<v>.<Kind>) to
 *   (<package>.<URL kind>): unknown conversion`;
 * - the same kind in another known version: 400 `the API version in the data (<apiVersion>)
 *   does not match the expected API version (<URL apiVersion>)`.
 */
function checkTypeMeta(
  obj: Readonly<Record<string, unknown>>,
  kind: string,
  apiVersion: string,
  knows: KnownKinds,
): void {
  const rawKind: unknown = obj.kind;
  const rawVersion: unknown = obj.apiVersion;
  if (
    (rawKind !== undefined && typeof rawKind !== 'string') ||
    (rawVersion !== undefined && typeof rawVersion !== 'string')
  ) {
    const field = typeof rawKind !== 'string' && rawKind !== undefined ? 'kind' : 'apiVersion';
    throw badRequest(
      `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${field} must be a string`,
    );
  }
  const decoded = decodeAs(rawKind ?? '', rawVersion ?? '', kind, apiVersion, knows);
  if (decoded.outcome === 'failed')
    throw badRequest(
      `${decoded.kind} in version "${decoded.version}" cannot be handled as a ${kind}: ${decoded.error}`,
    );
  if (decoded.outcome === 'otherVersion') {
    throw badRequest(
      `the API version in the data (${rawVersion}) does not match the expected API version (${apiVersion})`,
    );
  }
}

/**
 * Reject a body whose name or namespace contradicts the URL (upstream rest.go checkName). A
 * missing name is taken from the URL (`fillName`: patches, subresource creates), except on an
 * update, where upstream refuses it as a name that does not match.
 */
export function checkNameAndNamespace(
  obj: ApiObject,
  name: string,
  namespace: string,
  namespaced: boolean,
  fillName = true,
): void {
  const meta = obj.metadata;
  if (!meta.name && fillName) meta.name = name;
  if ((meta.name ?? '') !== name)
    throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
  if (namespaced && namespace) {
    if (meta.namespace && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
  }
}

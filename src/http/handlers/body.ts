/**
 * Reading an object body for create and update: decode, infer missing apiVersion/kind from
 * the URL, and reject mismatches with upstream's 400 messages.
 */
import type { ApiObject } from '../../api/object.js';
import { badRequest } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { decodeBody } from '../negotiation/media-types.js';
import { decodeProtobufBody } from '../negotiation/protobuf.js';

/** The request body decoded by its Content-Type: protobuf, JSON or YAML. Throws ApiError 415 (media type), 400 (empty or malformed). */
export function decodeRequestBody(ctx: ApiContext): unknown {
  const buffer = ctx.state.rawBuffer;
  return buffer ? decodeProtobufBody(ctx.state.codec, buffer) : decodeBody(ctx.get('Content-Type'), ctx.state.rawBody ?? '');
}

/** True when the request carries a body (of any media type). */
export function hasRequestBody(ctx: ApiContext): boolean {
  return Boolean(ctx.state.rawBuffer?.length || ctx.state.rawBody?.trim());
}

/**
 * The request body as an object of `kind` in `apiVersion`. Throws ApiError 415 (media type),
 * 400 (malformed, not an object, or another kind / apiVersion).
 */
export function readObjectBody(ctx: ApiContext, kind: string, apiVersion: string): ApiObject {
  const body = decodeRequestBody(ctx);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: the body is not an object`);
  }
  const obj = body as ApiObject;
  if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  if (obj.metadata !== undefined && (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata))) {
    throw badRequest(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: metadata must be an object`);
  }
  return { ...obj, apiVersion, kind, metadata: obj.metadata ?? {} };
}

/** Reject a body whose name or namespace contradicts the URL (upstream update.go checks). */
export function checkNameAndNamespace(obj: ApiObject, name: string, namespace: string, namespaced: boolean): void {
  const meta = obj.metadata;
  if (!meta.name) meta.name = name;
  if (meta.name !== name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
  if (namespaced && namespace) {
    if (meta.namespace && meta.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
  }
}

/**
 * Dispatch of resource requests: find the store from the request info, check that the verb
 * (and subresource) is served, and call the generic verb handler. Everything is driven by the
 * resource table; there is no per-kind code here.
 */
import { ApiError, methodNotAllowed, unsupportedMediaType } from '../../errors/api-error.js';
import type { AccessServices } from '../../registry/access.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { Verb } from '../../registry/types.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { RequestInfo } from '../request-info.js';
import type { ApiContext } from '../context.js';
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handleGet,
  handleList,
  handlePatch,
  handleUpdate,
} from './verbs.js';
import type { VerbTarget } from './verb-target.js';
import { handleWatch, type WatchSettings } from './watch.js';
import { isProtobuf, JSON_TYPE, negotiate, negotiateWithoutProtobuf, YAML_TYPE } from '../negotiation/media-types.js';
import { handleConnect } from './connect.js';
import { APPLY_PATCH, JSON_PATCH, MERGE_PATCH, patchMediaType, STRATEGIC_MERGE_PATCH } from '../patch/patch-object.js';

/**
 * The media types of a resource served in JSON and YAML only (custom resources, upstream
 * crdHandler): a protobuf body is 415, a strategic merge patch 415 (upstream's CR patch types
 * are JSON patch, merge patch and apply), and protobuf is never chosen for the answer (406
 * when nothing else is acceptable). Watches negotiate the same way (watch.ts).
 */
function jsonOnly(ctx: ApiContext, verb: Verb, patchType: string | undefined): void {
  if (patchType === STRATEGIC_MERGE_PATCH)
    throw unsupportedMediaType(patchType, [JSON_PATCH, MERGE_PATCH, APPLY_PATCH]);
  if (ctx.state.rawBuffer)
    throw unsupportedMediaType(ctx.get('Content-Type').split(';')[0] ?? '', [JSON_TYPE, YAML_TYPE]);
  if (verb === 'watch') return;
  const accept = ctx.get('Accept');
  if (verb === 'get' || verb === 'list') {
    // Table and metadata-only answers negotiate by their own `as=` ranges; only a plain answer
    // that would be protobuf is changed.
    let plain;
    try {
      plain = negotiate(accept);
    } catch {
      return; // only conversion ranges (`as=Table`): the handler negotiates them
    }
    if (isProtobuf(plain)) ctx.state.format = negotiateWithoutProtobuf(accept);
  } else ctx.state.format = negotiateWithoutProtobuf(accept);
}

/** 404 for paths that name no served resource. */
export function resourceNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/**
 * The served store of a resource request, or 404 (before authorization, as a route that does
 * not exist) when none serves it in the scope the path names: a cluster-scoped kind is not
 * served under `namespaces/{ns}/` (upstream registers no such route), and a namespaced object is
 * only addressed inside its namespace. Undefined when the resource is not served at all (that
 * 404 comes after authorization, as upstream's).
 */
export function servedScope(registry: ResourceRegistry, info: RequestInfo): GenericStore | undefined {
  const store = registry.lookup(info.group, info.version, info.resource);
  if (!store) return undefined;
  if (!store.def.namespaced && info.namespacedPath) throw resourceNotFound();
  if (store.def.namespaced && !info.namespace && info.name) throw resourceNotFound();
  return store;
}

/**
 * Middleware placed before authorization: requests for a served resource in a scope it is not
 * served in are 404 before anyone is asked (so no namespaced grant reaches a cluster-scoped kind).
 */
export function resourceScope(registry: ResourceRegistry) {
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const info = ctx.state.requestInfo;
    if (info.isResourceRequest) servedScope(registry, info);
    return next();
  };
}

/** Build the Koa handler for every resource path. */
export function resourceHandler(registry: ResourceRegistry, settings: WatchSettings, access?: AccessServices) {
  return async (ctx: ApiContext): Promise<void> => {
    const info = ctx.state.requestInfo;
    const store = servedScope(registry, info);
    if (!store) throw resourceNotFound();
    const def = store.def;
    const namespace = def.namespaced ? info.namespace : '';
    const subresource = info.subresource ? def.subresources.find((s) => s.name === info.subresource) : undefined;
    if (info.subresource && !subresource) throw resourceNotFound();
    // A resource without verbs of its own (extensions' ReplicationControllerDummy) serves no paths
    // but its subresources' (upstream registers no route for a storage without a verb interface).
    if (!subresource && def.verbs.length === 0) throw resourceNotFound();
    // Only connect subresources that take a path (proxies) serve segments after their name.
    if (info.extra.length > 0 && !subresource?.connect?.subpath) throw resourceNotFound();
    if (subresource?.connect)
      return handleConnect(ctx, registry, { store, namespace, name: info.name, connect: subresource.connect });
    const verb = info.verb as Verb | '';
    const allowed = subresource ? subresource.verbs : def.verbs;
    if (!verb || !allowed.includes(verb as Verb)) throw methodNotAllowed();
    // Upstream negotiates the output media type before any work (NegotiateOutputMediaType):
    // a write the client cannot read the answer of is 406 before it writes anything.
    // A PATCH checks its media type first (upstream patch.go: 415 before 406).
    const patchType = verb === 'patch' ? patchMediaType(ctx.get('Content-Type')) : undefined;
    if (def.protobufServed === false) jsonOnly(ctx, verb, patchType);
    else if (verb !== 'get' && verb !== 'list' && verb !== 'watch') ctx.state.format = negotiate(ctx.get('Accept'));
    const target: VerbTarget = { store, namespace, name: info.name, subresource, registry, access };
    switch (verb) {
      case 'get':
        return handleGet(ctx, target);
      case 'list':
        return handleList(ctx, target);
      case 'watch':
        return handleWatch(ctx, target, settings);
      case 'create':
        if (info.name && !subresource) throw methodNotAllowed();
        return handleCreate(ctx, target);
      case 'update':
        return handleUpdate(ctx, target);
      case 'patch':
        return handlePatch(ctx, target);
      case 'delete':
        return handleDelete(ctx, target);
      case 'deletecollection':
        return handleDeleteCollection(ctx, target);
    }
  };
}

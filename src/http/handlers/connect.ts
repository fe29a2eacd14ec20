/**
 * The generic handler of connect subresources (upstream k8s.io/apiserver
 * pkg/endpoints/handlers/rest.go ConnectResource and the LocationStreamer of GET-only ones):
 * the kind's rule (SubresourceDefinition.connect) finds the backend from the object and the
 * query, and this handler answers, streams, proxies or tunnels accordingly, or serves what the
 * rule answers itself (connect-local.ts). Nothing here is particular to a kind.
 */
import { methodNotAllowed } from '../../errors/api-error.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ConnectDefinition, ConnectRequest } from '../../registry/types.js';
import type { ApiContext } from '../context.js';
import { proxyTo, streamFrom, tunnelTo } from '../proxy/forward.js';
import { serveLocal } from './connect-local.js';

/** What a connect request addresses. */
export interface ConnectTargetRef {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly connect: ConnectDefinition;
}

/**
 * Serve one connect request. Throws ApiError: 405 for an HTTP method the subresource does not
 * take, and whatever the kind's rule throws (404 for a missing object, 400, 503); backend
 * failures are answered as forward.ts describes.
 */
export async function handleConnect(ctx: ApiContext, registry: ResourceRegistry, t: ConnectTargetRef): Promise<void> {
  if (!t.connect.methods.includes(ctx.method.toUpperCase())) throw methodNotAllowed();
  const def = t.store.def;
  const request: ConnectRequest = {
    namespace: t.namespace,
    name: t.name,
    query: new URLSearchParams(ctx.querystring),
    subpath: ctx.state.requestInfo.subpath,
    own: (name) => t.store.get(def.namespaced ? t.namespace : '', name),
    get: (of, namespace, name) => registry.of(of).get(of.namespaced ? namespace : '', name),
  };
  const target = await t.connect.locate(request);
  switch (target.mode) {
    case 'local':
      // A target the server answers itself (registry/connect-local.ts).
      return serveLocal(ctx, target.local);
    case 'none':
      // Upstream StreamObject: no location means no output, 204 No Content.
      ctx.status = 204;
      return;
    case 'stream':
      return streamFrom(ctx, target.url, {
        contentType: target.contentType ?? 'text/plain',
        resource: target.resource ?? `${def.plural}`,
        name: target.name ?? t.name,
        owner: target.owner,
      });
    case 'upgrade':
      return tunnelTo(ctx, target.url, target.owner);
    case 'proxy': {
      // The client's query goes to the backend as it is (upstream: loc.RawQuery = req.URL.RawQuery).
      const url = new URL(target.url.href);
      url.search = ctx.querystring ? `?${ctx.querystring}` : '';
      return proxyTo(ctx, url, target.owner);
    }
  }
}

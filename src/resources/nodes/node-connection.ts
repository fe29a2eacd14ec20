/**
 * How the API server reaches a node's agent (kubelet), and the `nodes/proxy` subresource.
 * Follows upstream 1.10 pkg/kubelet/client/kubelet_client.go (NodeConnectionInfoGetter with
 * the default --kubelet-preferred-address-types, --kubelet-port 10250 and HTTPS) and
 * pkg/registry/core/node/strategy.go ResourceLocation.
 */
import { ApiError, badRequest } from '../../errors/api-error.js';
import type { ConnectRequest, ConnectTarget, SubresourceDefinition } from '../../registry/types.js';
import { joinHostPort } from '../../net/host-port.js';
import { checkProxyableHostname, isPortNumber, joinPath, splitSchemeNamePort } from '../../net/location.js';
import type { Node } from './nodes.schema.js';

/** Upstream's default --kubelet-preferred-address-types. */
export const PREFERRED_ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'] as const;
/** Upstream's default --kubelet-port. */
export const DEFAULT_AGENT_PORT = 10250;

/** Where a node's agent listens. */
export interface NodeConnection {
  readonly node: string;
  readonly scheme: 'https';
  readonly host: string;
  readonly port: number;
}

/** A node's daemon endpoints, also under upstream's older name for the agent's (kubeletEndpoint). */
type DaemonEndpoints = NonNullable<NonNullable<Node['status']>['daemonEndpoints']> & {
  kubeletEndpoint?: { Port?: number | null } | null;
};

/**
 * The preferred address of `node` (upstream GetPreferredNodeAddress: by type in preference
 * order; for Hostname the `kubernetes.io/hostname` label also counts). Throws ApiError 500
 * `no preferred addresses found; known addresses: [...]` when none fits.
 */
export function preferredNodeAddress(n: Node): string {
  const addresses = n.status?.addresses ?? [];
  for (const type of PREFERRED_ADDRESS_TYPES) {
    const found = addresses.find((a) => a.type === type && a.address);
    if (found?.address) return found.address;
    const label = n.metadata.labels?.['kubernetes.io/hostname'];
    if (type === 'Hostname' && label) return label;
  }
  const known = addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ');
  throw new ApiError(500, '', `no preferred addresses found; known addresses: [${known}]`);
}

/**
 * How to reach the agent of node `name`, read by `get` (upstream GetConnectionInfo). Throws ApiError 404
 * `nodes "<name>" not found` when the node is gone, 500 when it has no usable address.
 */
export async function nodeConnection(get: (name: string) => Promise<Node>, name: string): Promise<NodeConnection> {
  const node = await get(name);
  const endpoints: DaemonEndpoints | null | undefined = node.status?.daemonEndpoints;
  const reported = endpoints?.agentEndpoint?.Port ?? endpoints?.kubeletEndpoint?.Port ?? 0;
  return {
    node: name,
    scheme: 'https',
    host: preferredNodeAddress(node),
    port: reported > 0 ? reported : DEFAULT_AGENT_PORT,
  };
}

/** The agent's URL of a connection with `path` and `query`; ApiError 500 for an unusable address. */
export function agentUrl(c: NodeConnection, path: string, query = ''): URL {
  let url: URL;
  try {
    url = new URL(`${c.scheme}://${joinHostPort(c.host, c.port)}`);
  } catch {
    // Upstream builds the URL anyway and its dial fails on the name: answer as that failure.
    throw new ApiError(500, '', `dial tcp: lookup ${c.host}: no such host`, { name: c.node, kind: 'nodes' });
  }
  url.pathname = path;
  url.search = query ? `?${query}` : '';
  return url;
}

/**
 * `nodes/{name}[:port]/proxy[/path]` (upstream node ResourceLocation): the agent itself when no
 * port or the agent's port is named; another port of the node over the requested scheme, if
 * the node's address is not loopback or link-local. Throws ApiError 400 `invalid node request`,
 * 404 for a missing node, 400 `address not allowed`.
 */
async function locateNodeProxy(req: ConnectRequest<Node>): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(req.name);
  if (!id || (id.port && !isPortNumber(id.port))) throw badRequest(`invalid node request ${JSON.stringify(req.name)}`);
  const c = await nodeConnection(req.own, id.name);
  const owner = { kind: 'nodes', name: c.node };
  if (!id.port || id.port === String(c.port))
    return { mode: 'proxy', url: agentUrl(c, joinPath('', req.subpath)), owner };
  await checkProxyableHostname(c.host);
  const url = agentUrl(c, joinPath('', req.subpath));
  url.protocol = `${id.scheme || 'http'}:`;
  url.port = id.port;
  return { mode: 'proxy', url, owner };
}

/** Upstream's proxy methods (pkg/registry/core/node/rest/proxy.go). */
export const PROXY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** The `nodes/proxy` subresource. */
export const nodeProxySubresource: SubresourceDefinition<Node> = {
  name: 'proxy',
  kind: 'Node',
  verbs: ['create', 'delete', 'get', 'patch', 'update'],
  connect: { methods: PROXY_METHODS, subpath: true, locate: locateNodeProxy },
};

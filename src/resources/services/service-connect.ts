/**
 * The `services/proxy` subresource: requests to `services/[scheme:]name[:port]/proxy[/path]`
 * go to one ready address of the service's Endpoints. Follows upstream 1.10
 * pkg/registry/core/service/rest.go ResourceLocation: a numeric port is mapped to the name of
 * the service port declaring it (503 `no service port N found for service "NAME"`), then a
 * subset with that port name and at least one ready address is picked at random.
 */
import { isIP } from 'node:net';
import { ApiError, badRequest } from '../../errors/api-error.js';
import type { ConnectRequest, ConnectTarget, SubresourceDefinition } from '../../registry/types.js';
import { joinHostPort } from '../../net/host-port.js';
import { joinPath, splitSchemeNamePort } from '../../net/location.js';
import { PROXY_METHODS } from '../nodes/node-connection.js';
import { endpoints as endpointsResource } from '../endpoints/endpoints.resource.js';
import type { Endpoints } from '../endpoints/endpoints.schema.js';
import type { Service } from './services.schema.js';

const unavailable = (message: string) => new ApiError(503, 'ServiceUnavailable', message);
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/**
 * Find the endpoint a service proxy request goes to. Throws ApiError 400 `invalid service
 * request`, 404 `services "NAME" not found`, 503 `no endpoints available for service "NAME"`
 * (no Endpoints object, no subsets, or no ready address on the port) or `no service port ...`.
 */
async function locateServiceProxy(req: ConnectRequest<Service>): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(req.name);
  if (!id) throw badRequest(`invalid service request ${JSON.stringify(req.name)}`);
  const service = await req.own(id.name);
  let portName = id.port;
  if (/^[+-]?\d+$/.test(id.port)) {
    const declared = (service.spec?.ports ?? []).find((p) => p.port === Number(id.port));
    if (!declared) throw unavailable(`no service port ${Number(id.port)} found for service ${JSON.stringify(id.name)}`);
    portName = declared.name ?? '';
  }
  let endpoints: Endpoints;
  try {
    endpoints = await req.get(endpointsResource, req.namespace, id.name);
  } catch (err) {
    // Upstream answers 404 for the Endpoints; its endpoints controller creates them with the
    // service, which nothing does here, so a service without them has no endpoints available.
    if (err instanceof ApiError && err.code === 404)
      throw unavailable(`no endpoints available for service ${JSON.stringify(id.name)}`);
    throw err;
  }
  const subsets = endpoints.subsets ?? [];
  if (subsets.length === 0) throw unavailable(`no endpoints available for service ${JSON.stringify(id.name)}`);
  const start = Math.floor(Math.random() * subsets.length);
  for (let i = 0; i < subsets.length; i++) {
    const subset = subsets[(start + i) % subsets.length];
    const addresses = (subset.addresses ?? []).filter((a) => a.ip && isIP(a.ip));
    if (addresses.length === 0) continue;
    const port = (subset.ports ?? []).find((p) => (p.name ?? '') === portName && p.port);
    if (!port) continue;
    const url = new URL(`${id.scheme || 'http'}://${joinHostPort(pick(addresses).ip, port.port)}`);
    url.pathname = joinPath('', req.subpath);
    return { mode: 'proxy', url };
  }
  throw unavailable(`no endpoints available for service ${JSON.stringify(req.name)}`);
}

/** The `services/proxy` subresource. */
export const serviceProxySubresource: SubresourceDefinition<Service> = {
  name: 'proxy',
  kind: 'Service',
  verbs: ['create', 'delete', 'get', 'patch', 'update'],
  connect: { methods: PROXY_METHODS, subpath: true, locate: locateServiceProxy },
};

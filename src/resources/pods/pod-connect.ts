/**
 * The pod subresources served by the node agent or the pod itself: `log`, `exec`, `attach`,
 * `portforward` and `proxy`. Follows upstream 1.10 pkg/registry/core/pod/strategy.go
 * (LogLocation, streamLocation, PortForwardLocation, ResourceLocation),
 * pkg/registry/core/pod/rest/log.go and subresources.go, and ValidatePodLogOptions. For a pod
 * on a simulated node the server answers `log`, `exec` and `attach` itself (simulated/agent.ts).
 */
import { badRequest, invalid } from '../../errors/api-error.js';
import type { ConnectRequest, ConnectTarget, SubresourceDefinition } from '../../registry/types.js';
import { joinHostPort } from '../../net/host-port.js';
import { checkProxyableIP, encodeQuery, isPortNumber, joinPath, splitSchemeNamePort } from '../../net/location.js';
import { PROXY_METHODS, agentUrl, nodeConnection } from '../nodes/node-connection.js';
import { nodes } from '../nodes/nodes.resource.js';
import type { Node } from '../nodes/nodes.schema.js';
import { isSimulatedNode } from '../nodes/simulated-node.js';
import { refusePortForward, simulatedLog, simulatedSession } from './simulated/agent.js';
import { logParams, streamParams } from './pod-connect-options.js';
import type { Pod } from './pods.schema.js';

const names = (list: { name?: string | null }[] | null | undefined) => (list ?? []).map((c) => c.name ?? '');

/**
 * The container a request is for (upstream's container choice in LogLocation/streamLocation):
 * the one named, or the only one. Throws ApiError 400 `a container name must be specified for
 * pod NAME, choose one of: [a b]` (plus the init containers when there are some), or
 * `container X is not valid for pod NAME`.
 */
export function chooseContainer(pod: Pod, requested: string, name: string): string {
  const containers = names(pod.spec?.containers);
  const init = names(pod.spec?.initContainers);
  if (requested) {
    if (!containers.includes(requested) && !init.includes(requested))
      throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  if (containers.length === 1) return containers[0];
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  if (init.length) message += ` or one of the init containers: [${init.join(' ')}]`;
  throw badRequest(message);
}

/** The pod's node, or ApiError 400 `pod NAME does not have a host assigned`. */
function assignedNode(pod: Pod, name: string): string {
  const node = pod.spec?.nodeName;
  if (!node) throw badRequest(`pod ${name} does not have a host assigned`);
  return node;
}

/** `pods/log`: the agent's containerLogs URL, or no location for an unscheduled pod (204). */
async function locateLog(req: ConnectRequest<Pod>): Promise<ConnectTarget> {
  const { params, problems, container } = logParams(req.query);
  if (problems.length) throw invalid('PodLogOptions', req.name, problems);
  const pod = await req.own(req.name);
  const chosen = chooseContainer(pod, container, req.name);
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) return { mode: 'none' };
  const node = await nodeReader(req)(nodeName);
  if (isSimulatedNode(node)) return simulatedLog(req, pod, chosen, params);
  const c = await nodeConnection(readNode(node), nodeName);
  const path = `/containerLogs/${pod.metadata.namespace}/${pod.metadata.name}/${chosen}`;
  return {
    mode: 'stream',
    url: agentUrl(c, path, encodeQuery(params)),
    contentType: 'text/plain',
    resource: 'pods/log',
    name: req.name,
    owner: { kind: 'nodes', name: nodeName },
  };
}

/** `pods/exec` and `pods/attach` (upstream streamLocation): the agent's /exec or /attach URL. */
function locateStream(kind: 'exec' | 'attach') {
  return async (req: ConnectRequest<Pod>): Promise<ConnectTarget> => {
    const { params, container } = streamParams(req.query, kind);
    const pod = await req.own(req.name);
    const chosen = chooseContainer(pod, container, req.name);
    const nodeName = assignedNode(pod, req.name);
    const node = await nodeReader(req)(nodeName);
    if (isSimulatedNode(node)) return simulatedSession(kind, req, pod, chosen, params);
    const c = await nodeConnection(readNode(node), nodeName);
    const path = `/${kind}/${pod.metadata.namespace}/${pod.metadata.name}/${chosen}`;
    return { mode: 'upgrade', url: agentUrl(c, path, encodeQuery(params)), owner: { kind: 'nodes', name: nodeName } };
  };
}

/** `pods/portforward` (upstream PortForwardLocation): the agent's /portForward URL. */
async function locatePortForward(req: ConnectRequest<Pod>): Promise<ConnectTarget> {
  const { params } = streamParams(req.query, 'portforward');
  const pod = await req.own(req.name);
  const nodeName = assignedNode(pod, req.name);
  const node = await nodeReader(req)(nodeName);
  if (isSimulatedNode(node)) refusePortForward(pod, nodeName);
  const c = await nodeConnection(readNode(node), nodeName);
  const path = `/portForward/${pod.metadata.namespace}/${pod.metadata.name}`;
  return { mode: 'upgrade', url: agentUrl(c, path, encodeQuery(params)), owner: { kind: 'nodes', name: nodeName } };
}

/**
 * `pods/{name}[:port]/proxy[/path]` (upstream pod ResourceLocation): the pod's IP on the port
 * named or the first container port. Throws ApiError 400 `invalid pod request` or `address not
 * allowed` (no, loopback or link-local pod IP), 404 for a missing pod.
 */
async function locateProxy(req: ConnectRequest<Pod>): Promise<ConnectTarget> {
  const id = splitSchemeNamePort(req.name);
  if (!id || (id.port && !isPortNumber(id.port))) throw badRequest(`invalid pod request ${JSON.stringify(req.name)}`);
  const pod = await req.own(id.name);
  let port = id.port;
  if (!port) port = String((pod.spec?.containers ?? []).find((c) => c.ports?.length)?.ports?.[0]?.containerPort ?? '');
  const ip = pod.status?.podIP ?? undefined;
  checkProxyableIP(ip);
  const scheme = id.scheme || 'http';
  const url = new URL(`${scheme}://${joinHostPort(ip, port || (scheme === 'https' ? '443' : '80'))}`);
  url.pathname = joinPath('', req.subpath);
  return { mode: 'proxy', url };
}

/** Upstream's upgradeable methods: GET for browsers' WebSockets, POST for kubectl. */
const UPGRADE_METHODS = ['GET', 'POST'] as const;

/** Reads the node a pod runs on. */
const nodeReader = (req: ConnectRequest<Pod>) => (name: string) => req.get(nodes, '', name);
/** A reader of a node already read. */
const readNode = (node: Node) => () => Promise.resolve(node);

/** The pod subresources served through the node agent or the pod. */
export const podConnectSubresources: readonly SubresourceDefinition<Pod>[] = [
  {
    name: 'attach',
    kind: 'Pod',
    verbs: ['create', 'get'],
    connect: { methods: UPGRADE_METHODS, locate: locateStream('attach') },
  },
  {
    name: 'exec',
    kind: 'Pod',
    verbs: ['create', 'get'],
    connect: { methods: UPGRADE_METHODS, locate: locateStream('exec') },
  },
  { name: 'log', kind: 'Pod', verbs: ['get'], connect: { methods: ['GET'], getter: true, locate: locateLog } },
  {
    name: 'portforward',
    kind: 'Pod',
    verbs: ['create', 'get'],
    connect: { methods: UPGRADE_METHODS, locate: locatePortForward },
  },
  {
    name: 'proxy',
    kind: 'Pod',
    verbs: ['create', 'delete', 'get', 'patch', 'update'],
    connect: { methods: PROXY_METHODS, subpath: true, locate: locateProxy },
  },
];

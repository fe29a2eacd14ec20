/**
 * The node agent the server plays for pods on simulated nodes (nodes/simulated-node.ts,
 * docs/simulated-nodes.md), for the pod subresources a kubelet
 * serves: `log` (a stream read from the pod's status), `exec` and `attach` (sessions answered
 * by the server), `portforward` (refused: a simulated pod has no ports to reach).
 */
import { badRequest } from '../../../errors/api-error.js';
import type { LocalConnectTarget, SessionStreams } from '../../../registry/connect-local.js';
import type { ConnectRequest } from '../../../registry/types.js';
import { services } from '../../services/services.resource.js';
import type { Pod } from '../pods.schema.js';
import { chooseRun, type LogOptions } from './container-log.js';
import { containerContext } from './container-env.js';
import { logStream } from './log-stream.js';
import { attachSession, execSession } from './session.js';

/** The `kubernetes` service's address when it cannot be read (the first of the default range). */
const DEFAULT_KUBERNETES_IP = '10.0.0.1';

type Params = readonly (readonly [string, string])[];
const has = (params: Params, name: string) => params.some(([k]) => k === name);
const num = (params: Params, name: string) => {
  const found = params.find(([k]) => k === name);
  return found ? Number(found[1]) : undefined;
};

/** PodLogOptions from the agent's query parameters (pod-connect-options.ts logParams). */
export function logOptions(params: Params): LogOptions {
  return {
    follow: has(params, 'follow'),
    previous: has(params, 'previous'),
    timestamps: has(params, 'timestamps'),
    tailLines: num(params, 'tailLines'),
    limitBytes: num(params, 'limitBytes'),
    sinceSeconds: num(params, 'sinceSeconds'),
    sinceTime: params.find(([k]) => k === 'sinceTime')?.[1],
  };
}

/** The streams of an exec or attach from the agent's query parameters (streamParams). */
export function sessionStreams(params: Params): SessionStreams {
  return {
    stdin: has(params, 'input'),
    stdout: has(params, 'output'),
    stderr: has(params, 'error'),
    tty: has(params, 'tty'),
  };
}

/**
 * `pods/log` of `container` answered by the server. Throws ApiError 400 with the kubelet's
 * message when the container has no log to read (waiting, no previous run).
 */
export function simulatedLog(
  req: ConnectRequest<Pod>,
  pod: Pod,
  container: string,
  params: Params,
): LocalConnectTarget {
  const opts = logOptions(params);
  const run = chooseRun(pod, container, opts.previous, Date.now());
  const reload = () => req.own(req.name);
  return { mode: 'local', local: logStream(container, run, opts, reload, Date.now) };
}

/** `pods/exec` or `pods/attach` of `container` answered by the server. */
export async function simulatedSession(
  kind: 'exec' | 'attach',
  req: ConnectRequest<Pod>,
  pod: Pod,
  container: string,
  params: Params,
): Promise<LocalConnectTarget> {
  const streams = sessionStreams(params);
  if (kind === 'attach') {
    const reload = () => req.own(req.name);
    return { mode: 'local', local: attachSession(pod, container, streams, reload, Date.now) };
  }
  const command = params.filter(([k]) => k === 'command').map(([, v]) => v);
  const ctx = containerContext(pod, container, await kubernetesIp(req), { tty: streams.tty, now: () => new Date() });
  return { mode: 'local', local: execSession(pod, container, command, streams, ctx) };
}

/** The `kubernetes` service's cluster IP (default namespace), or the default range's first address. */
async function kubernetesIp(req: ConnectRequest<Pod>): Promise<string> {
  try {
    const svc = await req.get(services, 'default', 'kubernetes');
    return svc.spec?.clusterIP || DEFAULT_KUBERNETES_IP;
  } catch {
    return DEFAULT_KUBERNETES_IP;
  }
}

/**
 * `pods/portforward` to a pod on a simulated node: ApiError 400, as an agent that cannot
 * forward answers (a simulated container listens on no port).
 */
export function refusePortForward(pod: Pod, node: string): never {
  throw badRequest(
    `unable to do port forwarding: pod ${JSON.stringify(pod.metadata.name)} runs on simulated node ${JSON.stringify(node)}, whose containers listen on no ports`,
  );
}

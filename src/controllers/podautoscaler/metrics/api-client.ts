/**
 * The production ResourceMetricsClient: this server has no aggregation proxy, so it does what
 * the aggregator would for `GET /apis/metrics.k8s.io/v1beta1/namespaces/<ns>/pods`: reads the
 * APIService `v1beta1.metrics.k8s.io` (absent, local, or not `Available`: client-go's 404 text
 * `the server could not find the requested resource (get pods.metrics.k8s.io)`), resolves its
 * Service to a ready endpoint (EndpointSlices, else Endpoints; as the webhooks do) and calls it
 * over HTTPS, verifying the serving certificate against the APIService's caBundle for the name
 * `<service>.<namespace>.svc` (upstream's), or not at all with insecureSkipTLSVerify, with a
 * timeout.
 */
import { request } from 'node:https';
import { registryServiceResolver, type ServiceResolver } from '../../../admission/webhooks/service-resolver.js';
import { ApiError } from '../../../errors/api-error.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import type { APIService } from '../../../resources/apiservices/apiservices.schema.js';
import { METRICS_API_NOT_FOUND, type PodMetrics, type ResourceMetricsClient } from './types.js';

/** The APIService of the resource metrics API. */
export const METRICS_API_SERVICE = 'v1beta1.metrics.k8s.io';

/** How long a call to the metrics server may take (ms), as upstream's default client timeout would bound it. */
export const METRICS_TIMEOUT_MS = 10_000;

/** The text client-go gives a failed GET of pods.metrics.k8s.io answering `status`. */
function failure(status: number, body: string): Error {
  if (status === 404) return new Error(METRICS_API_NOT_FOUND);
  if (status === 503)
    return new Error('the server is currently unable to handle the request (get pods.metrics.k8s.io)');
  return new Error(
    `an error on the server (${JSON.stringify(body.slice(0, 200))}) has prevented the request from succeeding (get pods.metrics.k8s.io)`,
  );
}

interface Call {
  readonly host: string;
  readonly port: number;
  readonly path: string;
  readonly serverName: string;
  readonly ca?: Buffer;
  readonly insecure: boolean;
  readonly timeoutMs: number;
}

/** GET `call.path` over HTTPS; answers the status and body. */
function get(call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: call.host,
        port: call.port,
        path: call.path,
        method: 'GET',
        headers: { accept: 'application/json' },
        servername: call.serverName,
        ca: call.ca,
        rejectUnauthorized: !call.insecure,
        timeout: call.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(
        new Error(`the server was unable to return a response in the time allotted (get pods.metrics.k8s.io)`),
      ),
    );
    req.on('error', reject);
    req.end();
  });
}

const available = (svc: APIService) =>
  svc.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True');

/** A ResourceMetricsClient reaching the metrics server registered as `v1beta1.metrics.k8s.io`. */
export function apiServiceMetricsClient(
  registry: ResourceRegistry,
  resolver: ServiceResolver = registryServiceResolver(registry),
  timeoutMs = METRICS_TIMEOUT_MS,
): ResourceMetricsClient {
  const apiService = async (): Promise<APIService | undefined> => {
    const store = registry.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
    try {
      return (await store?.get('', METRICS_API_SERVICE, '0')) as APIService | undefined;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  };
  return {
    async podMetrics(namespace, selector) {
      const svc = await apiService();
      const ref = svc?.spec?.service;
      if (!svc || !ref?.name || !ref.namespace || !available(svc)) throw new Error(METRICS_API_NOT_FOUND);
      let endpoint;
      try {
        endpoint = await resolver(ref.namespace, ref.name, ref.port ?? 443);
      } catch {
        throw new Error('the server is currently unable to handle the request (get pods.metrics.k8s.io)');
      }
      const query = selector ? `?labelSelector=${encodeURIComponent(selector)}` : '';
      const { status, body } = await get({
        host: endpoint.host,
        port: endpoint.port,
        path: `/apis/metrics.k8s.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/pods${query}`,
        serverName: `${ref.name}.${ref.namespace}.svc`,
        ca: svc.spec?.caBundle ? Buffer.from(svc.spec.caBundle, 'base64') : undefined,
        insecure: Boolean(svc.spec?.insecureSkipTLSVerify),
        timeoutMs,
      });
      if (status !== 200) throw failure(status, body);
      const list = JSON.parse(body) as { items?: PodMetrics[] };
      return list.items ?? [];
    },
  };
}

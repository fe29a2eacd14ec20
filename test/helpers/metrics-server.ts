/**
 * A small HTTPS metrics server for tests (what metrics-server answers at
 * `/apis/metrics.k8s.io/v1beta1/namespaces/<ns>/pods`): a CA of its own and a serving
 * certificate for `<service>.<namespace>.svc`; each list is answered by the handler with the
 * namespace and label selector asked, as a PodMetricsList. Listens on every interface, as a
 * Service's endpoint must be an address other than loopback.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** PodMetrics items for a namespace and selector. */
export type PodMetricsHandler = (namespace: string, labelSelector: string) => unknown[] | Promise<unknown[]>;

export interface MetricsServer {
  readonly port: number;
  /** base64 of the CA, as an APIService's caBundle. */
  readonly caBundle: string;
  /** The selectors asked, oldest first. */
  readonly asked: string[];
  close(): Promise<void>;
}

/** Start the server with a certificate for `serviceName` (`<service>.<namespace>.svc`). */
export async function startMetricsServer(serviceName: string, handler: PodMetricsHandler): Promise<MetricsServer> {
  const ca = await generate([{ name: 'commonName', value: 'metrics-test-ca' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const serving = await generate([{ name: 'commonName', value: 'metrics-server' }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2 as const, value: serviceName }] },
    ],
  });
  const asked: string[] = [];
  const server: Server = createServer({ key: serving.private, cert: serving.cert }, async (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    const m = /^\/apis\/metrics\.k8s\.io\/v1beta1\/namespaces\/([^/]+)\/pods$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 }));
      return;
    }
    const selector = url.searchParams.get('labelSelector') ?? '';
    asked.push(selector);
    const items = await handler(decodeURIComponent(m[1]!), selector);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items }));
  });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  return {
    port: (server.address() as AddressInfo).port,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    asked,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

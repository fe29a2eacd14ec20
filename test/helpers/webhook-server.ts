/**
 * A small HTTPS admission webhook for tests: a CA of its own and a serving certificate for
 * localhost, 127.0.0.1 and `<service>.<namespace>.svc` names; each path answers with the
 * handler registered for it (the AdmissionReview request in, the `response` fields out, the
 * uid filled in unless the handler sets one), and every review received is kept.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export type ReviewHandler = (
  request: any,
  review: any,
) => Record<string, unknown> | Promise<Record<string, unknown>> | { raw: unknown; status?: number };

export interface WebhookServer {
  readonly port: number;
  readonly caPem: string;
  /** base64 of the CA, as a webhook's caBundle. */
  readonly caBundle: string;
  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** Answer requests to `path` with `handler`. */
  on(path: string, handler: ReviewHandler): void;
  /** The reviews received on `path`, oldest first. */
  received(path: string): any[];
  close(): Promise<void>;
}

/** JSON patch as a response's `patch` (base64) with its type. */
export function jsonPatch(ops: unknown[]): { patch: string; patchType: 'JSONPatch' } {
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' };
}

/** Start the server; `serviceNames` are extra DNS names for its certificate. */
export async function startWebhookServer(serviceNames: string[] = []): Promise<WebhookServer> {
  const ca = await generate([{ name: 'commonName', value: 'webhook-test-ca' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const names = ['localhost', ...serviceNames];
  const serving = await generate([{ name: 'commonName', value: 'webhook' }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...names.map((value) => ({ type: 2 as const, value })), { type: 7 as const, ip: '127.0.0.1' }],
      },
    ],
  });
  const handlers = new Map<string, ReviewHandler>();
  const reviews = new Map<string, any[]>();
  const server: Server = createServer({ key: serving.private, cert: serving.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!reviews.has(path)) reviews.set(path, []);
      reviews.get(path)!.push(review);
      const handler = handlers.get(path) ?? (() => ({ allowed: true }));
      const out: any = await handler(review.request, review);
      if (res.destroyed) return;
      if (out && 'raw' in out) {
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof out.raw === 'string' ? out.raw : JSON.stringify(out.raw));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          apiVersion: review.apiVersion,
          kind: 'AdmissionReview',
          response: { uid: review.request.uid, ...out },
        }),
      );
    });
  });
  // Every interface: a Service's endpoint must be an address other than loopback.
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    caPem: ca.cert,
    caBundle: Buffer.from(ca.cert).toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    on: (path, handler) => void handlers.set(path, handler),
    received: (path) => reviews.get(path) ?? [],
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

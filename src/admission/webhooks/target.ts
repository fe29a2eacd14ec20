/**
 * Where and how a webhook is called, from its clientConfig (upstream k8s.io/apiserver
 * pkg/util/webhook/client.go hookClientConfig): a `url` as given; a `service` as
 * `https://<name>.<namespace>.svc:<port><path>`, verified as that server name and connected to
 * an endpoint of the Service; `caBundle` (base64 of PEM) as the trusted CAs. The URL carries
 * `?timeout=<n>s`, as client-go's request does when the call has a deadline.
 */
import type { Webhook } from '../../resources/webhook-common/webhook.schema.js';
import type { CallTarget } from './call.js';
import { CallError } from './call.js';
import type { ServiceResolver } from './service-resolver.js';

/**
 * The call target of `webhook` with a deadline of `timeoutSeconds`. Throws CallError when the
 * configuration names neither a URL nor a service, or the service cannot be resolved (its
 * message as upstream's dialer reports it: `Post "<url>": service "x" not found`).
 */
export async function callTarget(
  webhook: Webhook,
  timeoutSeconds: number,
  resolve: ServiceResolver,
): Promise<CallTarget> {
  return clientConfigTarget(webhook.clientConfig, timeoutSeconds, resolve);
}

/**
 * A webhook clientConfig's fields, as admissionregistration and apiextensions (a
 * CustomResourceDefinition's conversion webhook) both declare them.
 */
export interface WebhookClientConfig {
  readonly url?: string | null;
  readonly service?: {
    readonly namespace: string;
    readonly name: string;
    readonly path?: string | null;
    readonly port?: number | null;
  } | null;
  /** base64 of the PEM CA bundle. */
  readonly caBundle?: string | null;
}

/** The call target of a clientConfig `cc` (as callTarget; the same errors). */
export async function clientConfigTarget(
  cc: WebhookClientConfig,
  timeoutSeconds: number,
  resolve: ServiceResolver,
): Promise<CallTarget> {
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  const timeout = `timeout=${timeoutSeconds}s`;
  if (cc.service) {
    const port = cc.service.port ?? 443;
    const serverName = `${cc.service.name}.${cc.service.namespace}.svc`;
    const url = new URL(`https://${serverName}:${port}`);
    url.pathname = cc.service.path || '/';
    url.search = timeout;
    let connect: { host: string; port: number };
    try {
      connect = await resolve(cc.service.namespace, cc.service.name, port);
    } catch (err) {
      throw new CallError(
        `Post ${JSON.stringify(url.toString())}: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return { url, connect, serverName, ca };
  }
  if (!cc.url) throw new CallError('webhook configuration must have either service or URL');
  let url: URL;
  try {
    url = new URL(cc.url);
  } catch (err) {
    throw new CallError(`Unparsable URL: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!url.pathname) url.pathname = '/';
  url.search = timeout;
  return { url, ca };
}

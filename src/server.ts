/**
 * Starting and stopping a server: certificates, the HTTPS listener, the admin kubeconfig and
 * the controllers. Used by main.ts and by the in-process tests.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { ServerConfig } from './config/types.js';
import { buildDeps, type Deps } from './deps.js';
import { ensureServingCerts } from './serving/certs.js';
import { insecureCipherSuites } from './serving/cipher-suites.js';
import { applyConnectionTimeouts, httpsServerOptions } from './serving/https-options.js';
import { alpnProtocols, attachHttp2 } from './serving/http2.js';
import { installUpgradeHandling } from './http/proxy/upgrade.js';
import { requestListener } from './http/request-listener.js';
import { DEFAULT_REQUEST_TIMEOUT_SECONDS, setRequestTimeout } from './http/middleware/request-deadline.js';
import { EndpointReconciler, ensureKubernetesService } from './controllers/kubernetes-endpoints.js';
import { parseIpRange } from './net/ranges.js';
import { writeKubeconfig } from './serving/kubeconfig.js';
import { ensureAdminClientCert } from './serving/client-certs.js';

export interface RunningServer {
  readonly deps: Deps;
  readonly server: Server;
  /** The port actually bound. */
  readonly port: number;
  /** `https://<advertise-address>:<port>` */
  readonly url: string;
  /** PEM of the CA that signed the serving certificate (generated certs only). */
  readonly caPem?: string;
  /** Where the kubeconfig was written, if it was. */
  readonly kubeconfigPath?: string;
  /** Stop accepting, end watches, stop controllers, close storage, then flush and close the audit log. */
  stop(): Promise<void>;
}

/**
 * Start a server from settings. TLS and connection timeouts follow serving/https-options.ts.
 * Throws when storage or the port cannot be opened, or a cipher suite name is unknown.
 */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const deps = await buildDeps(config);
  let cert: string;
  let key: string;
  let caPem: string | undefined;
  if (config.tlsCertFile && config.tlsPrivateKeyFile) {
    [cert, key] = await Promise.all([readFile(config.tlsCertFile, 'utf8'), readFile(config.tlsPrivateKeyFile, 'utf8')]);
  } else {
    const generated = await ensureServingCerts(config.certDir, [config.advertiseAddress, ...config.tlsSans]);
    cert = generated.certPem;
    key = generated.keyPem;
    caPem = generated.caPem;
    deps.logger.info({ certDir: config.certDir }, 'serving with a self-signed CA and certificate');
  }
  const https = { cert, key, ...config };
  const insecure = insecureCipherSuites(config.tlsCipherSuites ?? []);
  for (const name of insecure) deps.logger.warn(`Use of insecure cipher '${name}' detected.`);
  // Client certificates (upstream --client-ca-file): asked for, verified against the bundle
  // (the generated CA by default), never required (a token may authenticate instead).
  const clientCa = config.clientCaFile ? await readFile(config.clientCaFile, 'utf8') : caPem;
  const tlsOptions = {
    ...httpsServerOptions(https),
    ...(clientCa ? { ca: clientCa, requestCert: true, rejectUnauthorized: false } : {}),
  };
  const http2 = !config.disableHttp2Serving;
  setRequestTimeout(deps.app, config.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS);
  // Requests that arrive before the kubeconfig is written wait for it: a client that waits
  // for the port (or /healthz) and then reads the kubeconfig finds it there.
  const listener = requestListener(deps.app);
  const writing = startGate();
  const handler: typeof listener = (req, res) =>
    writing.open ? listener(req, res) : writing.opened.then(() => listener(req, res));
  const server = createServer({ ...tlsOptions, ALPNProtocols: alpnProtocols(http2) }, handler);
  // exec, attach and portforward arrive as HTTP/1.1 upgrades; route them through the handler.
  installUpgradeHandling(server);
  applyConnectionTimeouts(server, https);
  const h2 = http2
    ? attachHttp2(server, tlsOptions, handler, {
        maxStreamsPerConnection: config.http2MaxStreamsPerConnection,
        idleTimeoutSeconds: config.idleTimeoutSeconds,
      })
    : undefined;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.securePort, config.bindAddress, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  deps.advertisedHostPort = `${config.advertiseAddress}:${port}`;
  const url = `https://${config.advertiseAddress}:${port}`;
  let kubeconfigPath: string | undefined;
  // With a generated CA the admin kubeconfig carries a client certificate (kubernetes-admin in
  // system:masters), as kubeadm's admin.conf, beside the admin token.
  const adminCert = caPem && !config.clientCaFile ? await ensureAdminClientCert(config.certDir) : undefined;
  if (config.writeKubeconfig && (deps.adminToken || adminCert)) {
    kubeconfigPath = config.writeKubeconfig;
    const ca = caPem ?? (config.tlsCertFile ? await readFile(config.tlsCertFile, 'utf8') : '');
    await writeKubeconfig(kubeconfigPath, { server: url, caPem: ca, token: deps.adminToken, clientCert: adminCert });
  }
  writing.release();
  // The `kubernetes` Service and this replica's address in its Endpoints (upstream's bootstrap controller).
  await ensureKubernetesService(deps.registry, parseIpRange(config.serviceClusterIpRange).ipAt(0), port, deps.logger);
  const endpoints = new EndpointReconciler(
    deps.registry,
    deps.storage,
    {
      ip: config.advertiseAddress,
      port,
      leaseTtlSeconds: config.endpointLeaseTtlSeconds,
      intervalMs:
        config.endpointReconcileIntervalSeconds === undefined
          ? undefined
          : config.endpointReconcileIntervalSeconds * 1000,
    },
    deps.logger,
  );
  endpoints.start();
  deps.compactor.start();
  deps.controllers.start();
  deps.customResources.start();
  void deps.flowControl?.consumer.start();
  deps.logger.info({ url, kubeconfig: kubeconfigPath }, 'ck-apiserver serving');

  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return {
    deps,
    server,
    port,
    url,
    caPem,
    kubeconfigPath,
    async stop() {
      deps.lifecycle.shuttingDown = true;
      await endpoints.stop();
      deps.compactor.stop();
      await deps.controllers.stop();
      deps.customResources.stop();
      deps.webhooks.stop();
      deps.policies.stop();
      deps.flowControl?.consumer.stop();
      deps.authorization.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      h2?.closeAll();
      for (const s of sockets) s.destroy();
      await closed;
      await deps.watchCache?.stop();
      await deps.kv.close();
      // Last: the ResponseComplete events of the watches just ended are written, then the file closed.
      await deps.audit?.close();
    },
  };
}

/** A gate opened once: `opened` resolves and `open` turns true at `release()`. */
function startGate(): { open: boolean; opened: Promise<void>; release(): void } {
  let release = () => undefined as void;
  const gate = {
    open: false,
    opened: new Promise<void>((resolve) => (release = resolve)),
    release: () => undefined as void,
  };
  gate.release = () => {
    gate.open = true;
    release();
  };
  return gate;
}

/** Default kubeconfig location for a cert dir: beside it. */
export function defaultKubeconfigPath(certDir: string): string {
  return join(dirname(certDir), 'kubeconfig');
}

/**
 * How the HTTPS listener treats connections: TLS versions and suites, and the timeouts that
 * drop slow or idle clients. Follows k8s.io/apiserver/pkg/server/secure_serving.go:
 * `MinVersion: tls.VersionTLS12` (or `--tls-min-version`), server cipher order,
 * `ReadHeaderTimeout: 32s` ("just shy of requestTimeoutUpperBound"), `IdleTimeout: 90s`
 * ("matches http.DefaultTransport keep-alive timeout"), TCP keep-alive every 3 minutes
 * (`defaultKeepAlivePeriod`), and no read or write timeout on the connection, so long watches
 * are not cut. Go bounds the TLS handshake by the same header timeout. A request's body is
 * bounded per request instead, by `--request-timeout` (http/middleware/request-deadline.ts),
 * which knows which requests are long-running.
 */
import type { Server, ServerOptions } from 'node:https';
import { opensslCipherList, TLS_VERSIONS, type TlsVersionName } from './cipher-suites.js';

/** Upstream's `ReadHeaderTimeout`, seconds. */
export const READ_HEADER_TIMEOUT_SECONDS = 32;
/** Upstream's `IdleTimeout` (keep-alive wait for the next request), seconds. */
export const IDLE_TIMEOUT_SECONDS = 90;
/** Upstream's TCP keep-alive period, seconds. */
const TCP_KEEPALIVE_SECONDS = 180;

/** What the listener needs: certificate, TLS choices and timeouts (seconds). */
export interface HttpsSettings {
  readonly cert: string;
  readonly key: string;
  /** Default `VersionTLS12`. */
  readonly tlsMinVersion?: TlsVersionName;
  /** Upstream/IANA names; empty or absent = DEFAULT_CIPHER_SUITES. */
  readonly tlsCipherSuites?: readonly string[];
  /** Time to receive a request's headers (and to finish the TLS handshake); default 32. */
  readonly readHeaderTimeoutSeconds?: number;
  /** Time a kept-alive connection may wait for its next request; default 90. */
  readonly idleTimeoutSeconds?: number;
}

/**
 * Options for `https.createServer`. Throws Error (`Cipher suite X not supported or doesn't
 * exist`) for an unknown suite name.
 */
export function httpsServerOptions(s: HttpsSettings): ServerOptions {
  const headerMs = (s.readHeaderTimeoutSeconds ?? READ_HEADER_TIMEOUT_SECONDS) * 1000;
  return {
    cert: s.cert,
    key: s.key,
    minVersion: TLS_VERSIONS[s.tlsMinVersion ?? 'VersionTLS12'],
    ciphers: opensslCipherList(s.tlsCipherSuites ?? []),
    honorCipherOrder: true,
    handshakeTimeout: headerMs,
    // Node checks header deadlines on this interval (default 30 s); check often enough that a
    // slow client is dropped close to the deadline, as Go's per-connection deadline does.
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(headerMs / 4))),
    keepAlive: true,
    keepAliveInitialDelay: TCP_KEEPALIVE_SECONDS * 1000,
  };
}

/**
 * Set the per-server timeouts: header deadline (Node answers 408 and closes), keep-alive idle
 * deadline, and no whole-request deadline on the connection (watches continue, as upstream;
 * other requests, their bodies included, end at their request deadline).
 */
export function applyConnectionTimeouts(server: Server, s: HttpsSettings): void {
  server.headersTimeout = (s.readHeaderTimeoutSeconds ?? READ_HEADER_TIMEOUT_SECONDS) * 1000;
  server.keepAliveTimeout = (s.idleTimeoutSeconds ?? IDLE_TIMEOUT_SECONDS) * 1000;
  server.requestTimeout = 0;
  server.setTimeout(0);
}

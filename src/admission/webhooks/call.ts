/**
 * One POST of an AdmissionReview to a webhook over HTTPS (upstream k8s.io/apiserver
 * pkg/util/webhook/client.go and client-go's REST client): TLS verified with the webhook's
 * `caBundle` (the system roots when it has none) and the server name of the URL or of the
 * Service (`<name>.<namespace>.svc`); `?timeout=<n>s` tells the webhook its deadline, and the
 * whole call (connect, TLS, answer) is abandoned when it passes. Failures are described as Go's
 * HTTP client and client-go describe them (`Post "<url>": context deadline exceeded`,
 * `dial tcp <addr>: connect: connection refused`, `tls: failed to verify certificate: x509:
 * certificate signed by unknown authority`, `an error on the server ("...") has prevented the
 * request from succeeding`).
 */
import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import { isRecord } from '../../api/json.js';
import { errorMessage } from '../../api/error-message.js';
import { describeHttpStatus } from './call-errors.js';

/** Where a webhook is reached. */
export interface CallTarget {
  /** The URL as upstream's client sends to (and names in errors), `?timeout=` included. */
  readonly url: URL;
  /** The address connected to, when not the URL's host (a Service's endpoint). */
  readonly connect?: { readonly host: string; readonly port: number };
  /** The TLS server name, when not the URL's host. */
  readonly serverName?: string;
  /** PEM CA bundle; absent: the system roots. */
  readonly ca?: string;
}

/** A failed call; `message` is what follows `failed to call webhook: `. */
export class CallError extends Error {}

/** The largest answer read (upstream bounds webhook responses too). */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** Agents with keep-alive, one per CA and server name (upstream caches its REST clients). */
const agents = new Map<string, Agent>();
function agentFor(ca: string | undefined, serverName: string): Agent {
  const key = `${serverName}\n${ca ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= 64) {
      const [oldestKey, oldest] = agents.entries().next().value!;
      oldest.destroy();
      agents.delete(oldestKey);
    }
    agent = new Agent({ keepAlive: true, maxSockets: 64, ...(ca ? { ca } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/** Options of postJson. */
export interface PostOptions {
  /**
   * Accept an answer without `kind` (default false): a caller that decodes the answer into a
   * typed review defaults its kind (client-go's decoder does so with a typed target).
   */
  readonly kindOptional?: boolean;
}

/**
 * POST `body` to `target`, giving up after `timeoutMs`. Resolves with the decoded JSON answer
 * of a 2xx response. Throws CallError (transport failure, timeout, non-2xx answer, an answer
 * that is not a JSON object, or without kind unless `opts.kindOptional`).
 */
export function postJson(
  target: CallTarget,
  body: string,
  timeoutMs: number,
  opts: PostOptions = {},
): Promise<Record<string, unknown>> {
  const { url } = target;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : 443;
  const serverName = target.serverName ?? host;
  const shown = `Post ${JSON.stringify(url.toString())}`;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new CallError(`${shown}: ${message}`));
    };
    const req = request({
      method: 'POST',
      host: target.connect?.host ?? host,
      port: target.connect?.port ?? port,
      path: `${url.pathname}${url.search}`,
      servername: isIP(serverName) ? undefined : serverName,
      agent: agentFor(target.ca, serverName),
      headers: {
        host: url.host,
        'content-type': 'application/json',
        accept: 'application/json, */*',
        'content-length': Buffer.byteLength(body),
      },
      // Verify the name as the TLS server name, also when connecting to an endpoint's address.
      checkServerIdentity: (_h, cert) => tlsIdentityError(serverName, cert),
    });
    const timer = setTimeout(() => {
      fail('context deadline exceeded');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => fail(describeTransportError(err, serverName)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          fail(`response body larger than ${MAX_RESPONSE_BYTES} bytes`);
          req.destroy();
        } else chunks.push(c);
      });
      res.on('error', (err) => fail(describeTransportError(err, serverName)));
      res.on('end', () => {
        if (settled) return;
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 206)
          return fail2(describeHttpStatus(code, String(res.headers['content-type'] ?? ''), text));
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch (err) {
          return fail2(`couldn't get version/kind; json parse error: ${errorMessage(err)}`);
        }
        if (!isRecord(parsed)) return fail2(`couldn't get version/kind; json parse error: not an object`);
        if (!opts.kindOptional && (typeof parsed.kind !== 'string' || !parsed.kind))
          return fail2(`Object 'Kind' is missing in '${text.trim()}'`);
        settled = true;
        clearTimeout(timer);
        resolve(parsed);
      });
    });
    // client-go's errors for an answer carry no "Post <url>:" prefix.
    const fail2 = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new CallError(message));
    };
    req.end(body);
  });
}

/** Go's wording of a transport failure (net and crypto/tls errors). */
function describeTransportError(err: unknown, serverName: string): string {
  const e = isRecord(err) ? err : {};
  const code = typeof e.code === 'string' ? e.code : '';
  const addr = typeof e.address === 'string' ? `${e.address}:${String(e.port ?? '')}` : serverName;
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${addr}: connect: connection refused`;
    case 'ETIMEDOUT':
      return `dial tcp ${addr}: i/o timeout`;
    case 'EHOSTUNREACH':
      return `dial tcp ${addr}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${addr}: connect: network is unreachable`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${serverName}: no such host`;
    case 'ECONNRESET':
      return 'EOF';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_SIGNATURE_FAILURE':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: ${errorMessage(err)}`;
    default:
      return errorMessage(err);
  }
}

/** Node's host name check, worded as Go's x509 HostnameError. */
function tlsIdentityError(
  serverName: string,
  cert: { subjectaltname?: string; subject?: { CN?: string | string[] } },
): Error | undefined {
  const names = (cert.subjectaltname ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:') || s.startsWith('IP Address:'))
    .map((s) => s.slice(s.indexOf(':') + 1));
  const matches = names.some((n) => nameMatches(n, serverName));
  if (matches) return undefined;
  const err = new Error(
    names.length
      ? `x509: certificate is valid for ${names.join(', ')}, not ${serverName}`
      : `x509: certificate relies on legacy Common Name field, use SANs instead`,
  );
  Object.assign(err, { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  return err;
}

/** Whether a certificate name (`*.example.com` matches one label) names `host`. */
function nameMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase();
  if (!p.startsWith('*.')) return p === h;
  const suffix = p.slice(1);
  return h.length > suffix.length && h.endsWith(suffix) && !h.slice(0, -suffix.length).includes('.');
}

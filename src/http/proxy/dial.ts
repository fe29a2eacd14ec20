/**
 * Dialing a connect backend (node agent, pod, endpoint) with a short deadline, and failures
 * worded as upstream's Go dialer words them (`dial tcp 10.0.0.1:10250: getsockopt: connection
 * refused`, Go 1.9/1.10 as upstream 1.10 was built with), so a client sees the address it could
 * not reach. HTTPS backends are not verified: upstream 1.10's kubelet client checks the
 * kubelet's certificate only when `--kubelet-certificate-authority` is given, which this
 * server does not have.
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { describeDialError, joinHostPort, urlHost, urlPort } from '../../net/host-port.js';

export { describeDialError, joinHostPort, urlHost, urlPort };

/** How long a backend may take to accept a connection (upstream dials for up to 30 s). */
export const DIAL_TIMEOUT_MS = 5000;

/** A failure to reach a backend; `message` is the Go-style text (`dial tcp ...: ...`). */
export class DialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DialError';
  }
}

/**
 * Open a TCP (http:) or TLS (https:, unverified) connection to `url`'s host and port. Resolves
 * once connected (after the TLS handshake); rejects with a DialError within DIAL_TIMEOUT_MS
 * (connection refused, unreachable, unknown host, handshake failure, timeout).
 */
export function dialBackend(url: URL, timeoutMs = DIAL_TIMEOUT_MS): Promise<Socket> {
  const host = urlHost(url);
  const port = urlPort(url);
  const addr = joinHostPort(host, port);
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const socket: Socket = secure
      ? tlsConnect({
          host,
          port,
          rejectUnauthorized: false,
          servername: isIP(host) ? undefined : host,
          ALPNProtocols: ['http/1.1'],
        })
      : netConnect({ host, port });
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      reject(new DialError(message));
    };
    const timer = setTimeout(() => fail(`dial tcp ${addr}: i/o timeout`), timeoutMs);
    socket.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code && !err.code.startsWith('ERR_SSL')
          ? describeDialError(err, host, addr)
          : `remote error: ${err.message}`,
      ),
    );
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.on('error', () => socket.destroy());
      resolve(socket);
    });
  });
}

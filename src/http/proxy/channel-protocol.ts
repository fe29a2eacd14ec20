/**
 * The WebSocket channel protocols of remote commands (exec, attach), as upstream's servers speak
 * them: k8s.io/apimachinery pkg/util/httpstream/wsstream conn.go (`channel.k8s.io`: each
 * binary message starts with its channel byte; `base64.channel.k8s.io`: text messages, the
 * channel as an ASCII digit, the data base64), the kubelet's
 * pkg/kubelet/cri/streaming/remotecommand/websocket.go (`v4.channel.k8s.io` and
 * `v4.base64.channel.k8s.io`: the error channel carries a Status in JSON; older ones its
 * message as text) and the API server's pkg/util/proxy/websocket.go (`v5.channel.k8s.io`, which
 * adds the CLOSE signal: channel 255 with the number of the stream the client closes).
 * Channels: 0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize. Pure.
 */

/** Channel numbers (upstream remotecommand constants). */
export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
export const CLOSE = 255;

/** The subprotocols served, and how each one frames data and reports the end. */
const PROTOCOLS: Record<string, { base64: boolean; statusJson: boolean; close: boolean }> = {
  'v5.channel.k8s.io': { base64: false, statusJson: true, close: true },
  'v4.channel.k8s.io': { base64: false, statusJson: true, close: false },
  'v4.base64.channel.k8s.io': { base64: true, statusJson: true, close: false },
  'channel.k8s.io': { base64: false, statusJson: false, close: false },
  'base64.channel.k8s.io': { base64: true, statusJson: false, close: false },
  '': { base64: false, statusJson: false, close: false },
};

/** The subprotocols a client may ask for, in the order the server prefers them. */
export const SUPPORTED_PROTOCOLS = Object.keys(PROTOCOLS).filter((p) => p);

/**
 * The subprotocol to answer: the first one the client offers that is served (as wsstream's
 * handshake picks), '' when the client offers none; undefined when it offers only unknown ones.
 */
export function negotiate(offered: readonly string[]): string | undefined {
  if (!offered.length) return '';
  return offered.find((p) => p in PROTOCOLS && p !== '');
}

/** A message to send: binary data, or text (the base64 protocols). */
export type Frame =
  { readonly binary: true; readonly data: Buffer } | { readonly binary: false; readonly data: string };

/** The message carrying `data` on `channel` under `protocol`. */
export function encodeFrame(protocol: string, channel: number, data: Uint8Array | string): Frame {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  if (PROTOCOLS[protocol]?.base64)
    return { binary: false, data: String.fromCharCode(48 + channel) + bytes.toString('base64') };
  return { binary: true, data: Buffer.concat([Buffer.of(channel), bytes]) };
}

/**
 * The channel and data of a received message (empty messages carry none: undefined). The CLOSE
 * signal is reported as `{ channel: 255, data: <the closed channel's number> }` under v5 only.
 * Throws Error for base64 data that does not decode.
 */
export function decodeFrame(protocol: string, message: Buffer): { channel: number; data: Buffer } | undefined {
  if (!message.length) return undefined;
  const p = PROTOCOLS[protocol] ?? PROTOCOLS[''];
  if (p.base64) {
    const text = message.toString('latin1');
    const payload = text.slice(1);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 !== 0)
      throw new Error(`illegal base64 data on channel ${text.charCodeAt(0) - 48}`);
    return { channel: text.charCodeAt(0) - 48, data: Buffer.from(payload, 'base64') };
  }
  if (message[0] === CLOSE && !p.close) return undefined;
  return { channel: message[0], data: message.subarray(1) };
}

/** How a session ended (registry/connect-local.ts SessionResult). */
export type Outcome = { readonly exitCode: number; readonly command?: readonly string[] } | { readonly error: string };

/**
 * What the error channel carries at the end, or undefined for nothing. v4 and v5: the Status
 * JSON — `{"metadata":{},"status":"Success"}`, the exit code as the kubelet reports it (Failure,
 * reason NonZeroExitCode, the code as the ExitCode cause), or an InternalError. Older
 * protocols: the failure's message as text, nothing on success.
 */
export function endMessage(protocol: string, outcome: Outcome): string | undefined {
  const status = endStatus(outcome);
  if (PROTOCOLS[protocol]?.statusJson) return JSON.stringify(status);
  return status.status === 'Success' ? undefined : status.message;
}

/** The Status a session's end is reported with (upstream v4WriteStatusFunc's input). */
export function endStatus(outcome: Outcome): Record<string, unknown> & { status: string; message?: string } {
  if ('error' in outcome) {
    const message = `Internal error occurred: ${outcome.error}`;
    return {
      metadata: {},
      status: 'Failure',
      message,
      reason: 'InternalError',
      details: { causes: [{ message: outcome.error }] },
      code: 500,
    };
  }
  if (outcome.exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    // The runtime's error (containerd: `error executing command [sh -c exit 2], exit code 2`).
    message: `command terminated with non-zero exit code: error executing command [${(outcome.command ?? []).join(' ')}], exit code ${outcome.exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(outcome.exitCode) }] },
  };
}

/** The terminal size a resize message carries (`{"Width":80,"Height":24}`), if it parses. */
export function decodeResize(data: Buffer): { width: number; height: number } | undefined {
  try {
    const size = JSON.parse(data.toString('utf8')) as { Width?: unknown; Height?: unknown };
    if (typeof size.Width === 'number' && typeof size.Height === 'number')
      return { width: size.Width, height: size.Height };
  } catch {
    // Not a size: ignored, as upstream's decoder stops reading.
  }
  return undefined;
}

/**
 * The outcome of a unary gRPC call from its HTTP/2 exchange (grpc/doc/PROTOCOL-HTTP2.md): the
 * one response message, or the GrpcError its status, its HTTP status or its transport failure
 * stands for.
 */
import { H2Error } from './h2/frames.js';
import { fieldOf, type H2Outcome } from './h2/h2-stream.js';
import { GrpcCode, GrpcError } from './grpc-error.js';

/**
 * The response message's bytes (without the 5-byte prefix), or the call's GrpcError:
 *  - the connection failed: UNAVAILABLE marked `connection` (and `unsent` when it never
 *    connected);
 *  - the server refused the stream (REFUSED_STREAM, or above a GOAWAY's last stream): UNAVAILABLE
 *    marked `unsent`; another reset: INTERNAL (CANCELLED for CANCEL);
 *  - `grpc-status` (in the trailers, or the headers of a trailers-only answer) other than 0:
 *    that code with the percent-decoded `grpc-message`; no status: UNKNOWN for an HTTP status
 *    other than 200, else UNAVAILABLE;
 *  - a body that is not exactly one uncompressed message: INTERNAL.
 */
export function unaryResult(outcome: H2Outcome): Buffer | GrpcError {
  if (outcome.error !== undefined) {
    if (outcome.lost) return new GrpcError(GrpcCode.UNAVAILABLE, outcome.error, true, outcome.unsent);
    if (outcome.unsent) return new GrpcError(GrpcCode.UNAVAILABLE, outcome.error, false, true);
    if (outcome.resetCode === H2Error.CANCEL) return new GrpcError(GrpcCode.CANCELLED, outcome.error);
    return new GrpcError(GrpcCode.INTERNAL, outcome.error);
  }
  const { headers, trailers, body } = outcome.response;
  const status = fieldOf(trailers, 'grpc-status') ?? fieldOf(headers, 'grpc-status');
  if (status === undefined) {
    const http = fieldOf(headers, ':status');
    if (http !== '200') return new GrpcError(GrpcCode.UNKNOWN, `HTTP status ${http}`);
    return new GrpcError(GrpcCode.UNAVAILABLE, 'stream closed without a status');
  }
  const code = Number(status);
  if (code !== 0) {
    const message = fieldOf(trailers, 'grpc-message') ?? fieldOf(headers, 'grpc-message');
    return new GrpcError(Number.isInteger(code) ? code : GrpcCode.UNKNOWN, decodeMessage(message));
  }
  if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5)
    return new GrpcError(GrpcCode.INTERNAL, 'malformed or compressed response message');
  return body.subarray(5);
}

/** grpc-message is percent-encoded (grpc/doc/PROTOCOL-HTTP2.md). */
export function decodeMessage(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

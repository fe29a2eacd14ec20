/** gRPC status codes and the error of a failed call. */

/** gRPC status codes (grpc/doc/statuscodes.md) used here. */
export const GrpcCode = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

const CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/**
 * A failed call: `code` is the gRPC status, the message "<code> <NAME>: <details>" (etcd's
 * own errors keep their "etcdserver: ..." details). `connection` is true when the member was
 * not reached or the connection was lost, so no answer came from etcd.
 */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
    readonly connection = false,
    /** True when the call never reached etcd (not dialled, not started, or refused unprocessed): nothing it asked for was applied. */
    readonly unsent = false,
  ) {
    super(`${code} ${CODE_NAMES[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

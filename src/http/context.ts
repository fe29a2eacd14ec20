/**
 * The Koa state every API handler sees, added by the middleware in order: request info,
 * the authenticated user, and the negotiated response format.
 */
import type { ParameterizedContext } from 'koa';
import type { ProtobufCodec } from '../api/protobuf/codec.js';
import type { Format } from './negotiation/media-types.js';
import type { RequestInfo } from './request-info.js';
import type { UserInfo } from '../auth/user-info.js';
import type { AuditState } from '../audit/auditor.js';

/** The authenticated caller (defined by authentication, auth/user-info.ts). */
export type { UserInfo };

/** A response that goes on after its handler returned (a watch). */
export interface StreamedResponse {
  /** Call `fn` once the response has ended (at once when it already has). */
  onEnd(fn: () => void): void;
}

export interface ApiState {
  requestInfo: RequestInfo;
  user?: UserInfo;
  /** Set once the handler has chosen a response format. */
  format?: Format;
  pretty?: boolean;
  /** Text body as read by the body parser. */
  rawBody?: string;
  /** Binary body of a protobuf request. */
  rawBuffer?: Buffer;
  /** The protobuf serializer of every served kind (set first, for every request). */
  codec: ProtobufCodec;
  /**
   * Set by a handler whose response goes on after it returns (a watch). Middleware that account
   * for the whole request (the request log and metrics, the long-running gauge, audit) finish
   * when it ends, so that an open watch holds no middleware frames, only its stream.
   */
  stream?: StreamedResponse;
  /** This request's audit ID: the `Audit-Id` response header (set first, by observe). */
  auditId?: string;
  /** The request's audit event while it is audited (http/middleware/audit.ts). */
  audit?: AuditState;
}

export type ApiContext = ParameterizedContext<ApiState>;

/**
 * Protobuf at the HTTP edge: reading request bodies with the app's codec (400 for malformed
 * bodies, 415 for kinds without a message, as upstream answers a body its serializer cannot
 * decode) and writing response bodies in the negotiated format.
 */
import { ProtobufDecodeError, type ProtobufCodec } from '../../api/protobuf/codec.js';
import { badRequest, unsupportedMediaType } from '../../errors/api-error.js';
import { checkDecodedValue } from './safe-decode.js';
import { BODY_TYPES, contentTypeOf, encodeBody, isProtobuf, type Format } from './media-types.js';
import { errorMessage } from '../../api/error-message.js';

/**
 * Decode a protobuf request body. Throws ApiError 400 (malformed, or a value without a JSON
 * form such as a NaN double) or 415 (no message for its kind). Nesting is bounded by the
 * message definitions (protobuf/messages.ts MAX_MESSAGE_NESTING) and protobufjs's limit of
 * 100 nested messages or groups.
 */
export function decodeProtobufBody(
  codec: ProtobufCodec,
  body: Buffer,
): Record<string, unknown> & { apiVersion: string; kind: string } {
  let obj: Record<string, unknown> & { apiVersion: string; kind: string };
  try {
    obj = codec.decodeObject(body);
  } catch (err) {
    if (err instanceof ProtobufDecodeError && err.unknownKind)
      throw unsupportedMediaType(`application/vnd.kubernetes.protobuf (${err.message})`, BODY_TYPES);
    throw badRequest(errorMessage(err));
  }
  checkDecodedValue(obj, 'the request body');
  return obj;
}

/**
 * The Content-Type and bytes of `body` in `format`. Documents without a protobuf message
 * (Tables, /version) fall back to JSON, as a client asking for protobuf always lists JSON too.
 */
export function encodeResponse(
  codec: ProtobufCodec,
  body: unknown,
  format: Format,
  pretty: boolean,
): { contentType: string; body: string | Buffer } {
  if (isProtobuf(format)) {
    // Looked up by apiVersion and kind: two groups may define a kind of the same name differently.
    if (typeof body === 'object' && body !== null && codec.canEncodeObject(body)) {
      return { contentType: contentTypeOf(format), body: codec.encodeObject(body as Record<string, unknown>) };
    }
    format = 'json';
  }
  return { contentType: contentTypeOf(format), body: encodeBody(body, format as 'json' | 'yaml', pretty) };
}

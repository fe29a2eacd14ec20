/**
 * Reads protobuf request bodies (`application/vnd.ck.protobuf`, or upstream's
 * `application/vnd.kubernetes.protobuf`) as bytes into `ctx.state.rawBuffer`; other bodies are
 * left to the text body parser. Bodies over the limit are 413.
 */
import { requestEntityTooLarge } from '../../errors/api-error.js';
import type { ApiContext } from '../context.js';
import { mediaTypeOf, PROTOBUF_TYPES } from '../negotiation/media-types.js';

export function protobufBody(limitBytes: number) {
  const read = async (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > limitBytes) throw requestEntityTooLarge(`limit is ${limitBytes}`);
      chunks.push(chunk as Buffer);
    }
    ctx.state.rawBuffer = Buffer.concat(chunks);
    await next();
  };
  // A request without a protobuf body passes straight on (no async frame of its own).
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> =>
    (PROTOBUF_TYPES as readonly string[]).includes(mediaTypeOf(ctx.get('Content-Type'))) ? read(ctx, next) : next();
}

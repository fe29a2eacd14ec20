/**
 * One request-response exchange on an {@link H2Connection}: what is sent (an encoded header
 * block and a body), the flow-control state, and what has come back.
 */

/** A header field as decoded: name and value, byte strings. */
export type HeaderField = readonly [name: string, value: string];

/** A response that ended normally (END_STREAM). */
export interface H2Response {
  /** The first header block (`:status`, ...; for a gRPC trailers-only answer also its status). */
  readonly headers: readonly HeaderField[];
  /** The DATA, joined. */
  readonly body: Buffer;
  /** The trailing header block, when one came. */
  readonly trailers?: readonly HeaderField[];
}

/** How an exchange ended: its response, or why there is none. */
export type H2Outcome =
  | { readonly response: H2Response; readonly error?: undefined }
  | {
      readonly error: string;
      /** True when the server did not take the request (never connected, refused, above GOAWAY's last stream). */
      readonly unsent: boolean;
      /** True when the connection was lost (no answer can come). */
      readonly lost: boolean;
      /** The RST_STREAM code, when the server reset the stream. */
      readonly resetCode?: number;
    };

/** The value of the first field named `name` (lower case) in `fields`. */
export function fieldOf(fields: readonly HeaderField[] | undefined, name: string): string | undefined {
  if (!fields) return undefined;
  for (const [n, v] of fields) if (n === name) return v;
  return undefined;
}

/** The state of one stream; owned by its connection. */
export class H2Stream {
  id = 0;
  /** Bytes the peer lets us send on this stream. */
  sendWindow = 0;
  /** How much of the body has been sent. */
  bodyOffset = 0;
  /** Bytes of DATA read since this stream's window was last re-opened. */
  unacknowledged = 0;
  ended = false;
  private first?: HeaderField[];
  private trailers?: HeaderField[];
  private chunks: Buffer[] = [];

  constructor(
    readonly headerBlock: Buffer,
    readonly body: Buffer,
    private readonly done: (outcome: H2Outcome) => void,
  ) {}

  /** A DATA payload (`flowBytes`: the frame's length, padding included, for flow control). */
  data(payload: Buffer, flowBytes: number): void {
    this.unacknowledged += flowBytes;
    if (payload.length) this.chunks.push(payload);
  }

  /** A decoded header block: the response's headers, then its trailers. */
  headers(fields: HeaderField[]): void {
    if (!this.first) this.first = fields;
    else this.trailers = fields;
  }

  /** The server ended the stream: hand over the response. */
  complete(): void {
    // One chunk is handed over as it is: a view of a socket read, which no later read reuses.
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.finish({ response: { headers: this.first ?? [], body, trailers: this.trailers } });
  }

  /** End with `outcome`, once (not after a cancel). */
  finish(outcome: H2Outcome): void {
    if (this.ended) return;
    this.ended = true;
    this.chunks = [];
    this.done(outcome);
  }
}

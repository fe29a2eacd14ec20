/**
 * The protobuf serializer (upstream k8s.io/apimachinery runtime/serializer/protobuf): objects
 * are `k8s\0` + a runtime.Unknown envelope {typeMeta{apiVersion, kind}, raw = the object's
 * message}; watch events are WatchEvent{type, object{raw = the full encoding of the object}}
 * behind a 4-byte big-endian length (protobuf_extension.go and util/framer). Pure; no I/O.
 */
import type protobuf from 'protobufjs';
import { compileMessages, MAX_MESSAGE_NESTING, messageNesting, type CompiledMessages, type ProtoMessages } from './messages.js';
import { fromWire, toWire } from './convert.js';
import { META_MESSAGES } from './meta-messages.js';
import { CORE_MESSAGES } from '../core/protobuf-messages.js';

/** `k8s\0`: upstream's protobuf magic prefix. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Json = Record<string, unknown>;

/** Raised for bodies this codec cannot read; `unknownKind` marks a kind without a message. */
export class ProtobufDecodeError extends Error {
  constructor(
    message: string,
    readonly unknownKind = false,
  ) {
    super(message);
  }
}

export class ProtobufCodec {
  private readonly compiled: CompiledMessages;

  /**
   * `sets`: the message sets of every served kind (meta messages are always included). Throws
   * Error on inconsistent sets, and on a message that contains itself or nests deeper than
   * MAX_MESSAGE_NESTING (decoding recurses once per level).
   */
  constructor(sets: readonly ProtoMessages[]) {
    this.compiled = compileMessages(META_MESSAGES, ...sets);
    const names = Object.keys(this.compiled.root.nested ?? {});
    for (const [name, depth] of messageNesting(this.compiled.root, names)) {
      if (depth > MAX_MESSAGE_NESTING) throw new Error(`protobuf message ${name} nests ${depth} messages deep (at most ${MAX_MESSAGE_NESTING})`);
    }
  }

  /** True when `kind` has a message (objects, lists, Status, discovery documents, DeleteOptions). */
  canEncode(kind: unknown): boolean {
    return typeof kind === 'string' && this.compiled.root.nested?.[kind] !== undefined && !['Unknown', 'WatchEvent'].includes(kind);
  }

  private type(name: string): protobuf.Type {
    return this.compiled.root.lookupType(name);
  }

  /** The bare message bytes of a JSON value of message `kind` (no envelope). Throws Error on bad values. */
  encodeMessage(kind: string, json: Json): Uint8Array {
    const type = this.type(kind);
    return type.encode(type.fromObject(toWire(type, json, this.compiled.traits))).finish();
  }

  /** The full encoding of an object with `apiVersion` and `kind`: magic + Unknown envelope. Throws Error for a kind without a message. */
  encodeObject(obj: Json): Buffer {
    const kind = String(obj.kind ?? '');
    if (!this.canEncode(kind)) throw new Error(`no protobuf message for kind ${kind || '(none)'}`);
    const raw = this.encodeMessage(kind, obj);
    const envelope = this.type('Unknown');
    const unknown = envelope.fromObject({ typeMeta: { apiVersion: String(obj.apiVersion ?? ''), kind }, raw, contentEncoding: '', contentType: '' });
    return Buffer.concat([PROTOBUF_MAGIC, envelope.encode(unknown).finish()]);
  }

  /**
   * Decode a full encoding (magic + Unknown) into the JSON form, with apiVersion and kind from
   * the envelope. Throws ProtobufDecodeError for a bad prefix, envelope or message, or a kind
   * without a message (`unknownKind`).
   */
  decodeObject(body: Uint8Array): Json & { apiVersion: string; kind: string } {
    const buf = Buffer.from(body);
    if (buf.length < 4 || !buf.subarray(0, 4).equals(PROTOBUF_MAGIC)) throw new ProtobufDecodeError('protobuf body does not start with the k8s\\0 magic prefix');
    let unknown: { typeMeta?: { apiVersion?: string; kind?: string }; raw?: Uint8Array };
    try {
      unknown = this.type('Unknown').decode(buf.subarray(4)) as unknown as typeof unknown;
    } catch (err) {
      throw new ProtobufDecodeError(`couldn't decode the protobuf envelope: ${(err as Error).message}`);
    }
    const apiVersion = unknown.typeMeta?.apiVersion ?? '';
    const kind = unknown.typeMeta?.kind ?? '';
    if (!this.canEncode(kind)) throw new ProtobufDecodeError(`no protobuf message for kind ${kind || '(unset)'}`, true);
    try {
      const type = this.type(kind);
      const json = fromWire(type, type.decode(unknown.raw ?? new Uint8Array()) as unknown as Json, this.compiled.traits);
      return { apiVersion, kind, ...json };
    } catch (err) {
      throw new ProtobufDecodeError(`${kind} in version "${apiVersion}" cannot be handled as a ${kind}: ${(err as Error).message}`);
    }
  }

  /** One watch frame: 4-byte big-endian length, then WatchEvent{type, object.raw = encodeObject(object)}. */
  encodeWatchEvent(type: string, object: Json): Buffer {
    const event = this.type('WatchEvent');
    const bytes = event.encode(event.fromObject({ type, object: { raw: this.encodeObject(object) } })).finish();
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  }

  /** Split a watch stream body into events (for clients and tests). Throws ProtobufDecodeError on a truncated frame. */
  decodeWatchStream(stream: Uint8Array): { type: string; object: Json }[] {
    const buf = Buffer.from(stream);
    const events: { type: string; object: Json }[] = [];
    for (let at = 0; at < buf.length; ) {
      if (at + 4 > buf.length) throw new ProtobufDecodeError('truncated watch frame length');
      const len = buf.readUInt32BE(at);
      if (at + 4 + len > buf.length) throw new ProtobufDecodeError('truncated watch frame');
      const ev = this.type('WatchEvent').decode(buf.subarray(at + 4, at + 4 + len)) as unknown as { type: string; object?: { raw?: Uint8Array } };
      events.push({ type: ev.type, object: this.decodeObject(ev.object?.raw ?? new Uint8Array()) });
      at += 4 + len;
    }
    return events;
  }
}

/** The codec of served kinds: meta/v1, the shared core/v1 messages and each kind's own set. */
export function codecFor(defs: readonly { readonly protobuf: ProtoMessages }[]): ProtobufCodec {
  return new ProtobufCodec([CORE_MESSAGES, ...defs.map((d) => d.protobuf)]);
}

/**
 * The protobuf serializer (upstream k8s.io/apimachinery runtime/serializer/protobuf): objects
 * are `k8s\0` + a runtime.Unknown envelope {typeMeta{apiVersion, kind}, raw = the object's
 * message}; watch events are WatchEvent{type, object{raw = the full encoding of the object}}
 * behind a 4-byte big-endian length (protobuf_extension.go and util/framer). Pure; no I/O.
 */
import type protobuf from 'protobufjs';
import {
  compilePackages,
  MAX_MESSAGE_NESTING,
  messageNesting,
  type CompiledPackages,
  type ProtoMessages,
} from './messages.js';
import { fromWire, toWire } from './convert.js';
import { errorMessage } from '../error-message.js';
import { recordOf } from '../json.js';
import { META_MESSAGES, META_VERSION } from './meta-messages.js';
import { CORE_MESSAGES, CORE_VERSION } from '../core/protobuf-messages.js';

/** `k8s\0`: upstream's protobuf magic prefix. */
export const PROTOBUF_MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Json = Record<string, unknown>;

/** The envelope messages: never the kind of an object. */
const ENVELOPES = new Set(['Unknown', 'WatchEvent']);

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
  private readonly compiled: CompiledPackages;
  /** Message name -> its message when every package that has one of that name defines it alike; null when they differ. */
  private readonly byName = new Map<string, protobuf.Type | null>();

  /**
   * `sets`: the message sets of every served kind, by API version (meta/v1 messages are always
   * included). Throws Error on inconsistent sets, and on a message that contains itself or
   * nests deeper than MAX_MESSAGE_NESTING (decoding recurses once per level).
   */
  constructor(sets: readonly ProtoMessages[]) {
    this.compiled = compilePackages([{ [META_VERSION]: META_MESSAGES }, ...sets], [CORE_VERSION, META_VERSION]);
    const named = [...this.compiled.packages.values()].flatMap((messages) => [...messages]);
    for (const [type, depth] of messageNesting(named.map(([, type]) => type))) {
      if (depth > MAX_MESSAGE_NESTING)
        throw new Error(`protobuf message ${type.name} nests ${depth} messages deep (at most ${MAX_MESSAGE_NESTING})`);
    }
    const signatures = new Map<protobuf.Type, string>();
    const signature = (type: protobuf.Type): string => {
      let known = signatures.get(type);
      if (known === undefined) {
        known = type.fieldsArray
          .map((f) => {
            const traits = this.compiled.traits.get(f);
            const inner = f.resolvedType && 'fieldsArray' in f.resolvedType ? `{${signature(f.resolvedType)}}` : f.type;
            return `${f.name}=${f.id}:${f.repeated ? '[]' : ''}${f.map ? 'map' : ''}${inner}${traits?.keepZero ? '!' : ''}${traits?.inline ? '~' : ''}`;
          })
          .join(' ');
        signatures.set(type, known);
      }
      return known;
    };
    for (const [name, type] of named) {
      const seen = this.byName.get(name);
      if (seen === undefined) this.byName.set(name, type);
      else if (seen !== null && signature(seen) !== signature(type)) this.byName.set(name, null);
    }
  }

  /**
   * True when objects of `kind` have a message (objects, lists, Status, discovery documents,
   * DeleteOptions): under `apiVersion` as {@link messageOf} finds it, or, without an
   * apiVersion, in any version.
   */
  canEncode(kind: unknown, apiVersion?: unknown): boolean {
    if (typeof kind !== 'string' || ENVELOPES.has(kind)) return false;
    return apiVersion === undefined ? this.byName.has(kind) : this.messageOf(String(apiVersion), kind) !== undefined;
  }

  /** True when `obj` has a message under its own apiVersion and kind (what {@link encodeObject} needs). */
  canEncodeObject(obj: { readonly apiVersion?: unknown; readonly kind?: unknown }): boolean {
    return this.canEncode(obj.kind, String(obj.apiVersion ?? ''));
  }

  /**
   * The message of an object of `kind` under `apiVersion`: the kind's message in the package of
   * that group version; else a meta/v1 kind (Status, DeleteOptions, discovery documents, which
   * every version serves); else the message of that name when only one is defined (every
   * package that has one defines it alike): a kind sent under another version is read as
   * before messages had packages. Undefined when none fits.
   */
  messageOf(apiVersion: string, kind: string): protobuf.Type | undefined {
    if (ENVELOPES.has(kind)) return undefined;
    return (
      this.packageMessage(apiVersion, kind) ??
      this.packageMessage(META_VERSION, kind) ??
      this.byName.get(kind) ??
      undefined
    );
  }

  /** The message `name` of the package of `apiVersion` only (no other version's). */
  packageMessage(apiVersion: string, name: string): protobuf.Type | undefined {
    return this.compiled.packages.get(apiVersion)?.get(name);
  }

  /** The message `name` (an envelope, or a kind as {@link messageOf} finds it). Throws Error when there is none. */
  private type(name: string, apiVersion = ''): protobuf.Type {
    const type = this.packageMessage(META_VERSION, name) ?? this.messageOf(apiVersion, name);
    if (!type) throw new Error(`no protobuf message ${name}`);
    return type;
  }

  /** Why an object of `kind` under `apiVersion` has no message. */
  private missing(kind: string, apiVersion: string, unset: string): string {
    const ambiguous = this.byName.get(kind) === null && !ENVELOPES.has(kind);
    return `no protobuf message for kind ${kind || unset}${ambiguous ? ` in version "${apiVersion}"` : ''}`;
  }

  /** The bare message bytes of a JSON value of message `type` (no envelope). Throws Error on bad values. */
  private encodeMessage(type: protobuf.Type, json: Json): Uint8Array {
    return type.encode(type.fromObject(toWire(type, json, this.compiled.traits))).finish();
  }

  /** The full encoding of an object with `apiVersion` and `kind`: magic + Unknown envelope. Throws Error for a kind without a message. */
  encodeObject(obj: Json): Buffer {
    const kind = String(obj.kind ?? '');
    const apiVersion = String(obj.apiVersion ?? '');
    const type = this.messageOf(apiVersion, kind);
    if (!type) throw new Error(this.missing(kind, apiVersion, '(none)'));
    const raw = this.encodeMessage(type, obj);
    const envelope = this.type('Unknown');
    const unknown = envelope.fromObject({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' });
    return Buffer.concat([PROTOBUF_MAGIC, envelope.encode(unknown).finish()]);
  }

  /**
   * Decode a full encoding (magic + Unknown) into the JSON form, with apiVersion and kind from
   * the envelope. Throws ProtobufDecodeError for a bad prefix, envelope or message, or a kind
   * without a message under that apiVersion (`unknownKind`).
   */
  decodeObject(body: Uint8Array): Json & { apiVersion: string; kind: string } {
    const buf = Buffer.from(body);
    if (buf.length < 4 || !buf.subarray(0, 4).equals(PROTOBUF_MAGIC))
      throw new ProtobufDecodeError('protobuf body does not start with the k8s\\0 magic prefix');
    let unknown: protobuf.Message;
    try {
      unknown = this.type('Unknown').decode(buf.subarray(4));
    } catch (err) {
      throw new ProtobufDecodeError(`couldn't decode the protobuf envelope: ${errorMessage(err)}`);
    }
    const envelope = recordOf(unknown);
    const typeMeta = recordOf(envelope.typeMeta);
    const apiVersion = typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
    const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
    const type = this.messageOf(apiVersion, kind);
    if (!type) throw new ProtobufDecodeError(this.missing(kind, apiVersion, '(unset)'), true);
    try {
      const json = fromWire(
        type,
        recordOf(type.decode(envelope.raw instanceof Uint8Array ? envelope.raw : new Uint8Array())),
        this.compiled.traits,
      );
      return { apiVersion, kind, ...json };
    } catch (err) {
      throw new ProtobufDecodeError(
        `${kind} in version "${apiVersion}" cannot be handled as a ${kind}: ${errorMessage(err)}`,
      );
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
    for (let at = 0; at < buf.length;) {
      if (at + 4 > buf.length) throw new ProtobufDecodeError('truncated watch frame length');
      const len = buf.readUInt32BE(at);
      if (at + 4 + len > buf.length) throw new ProtobufDecodeError('truncated watch frame');
      const ev = recordOf(this.type('WatchEvent').decode(buf.subarray(at + 4, at + 4 + len)));
      const raw = recordOf(ev.object).raw;
      events.push({
        type: String(ev.type),
        object: this.decodeObject(raw instanceof Uint8Array ? raw : new Uint8Array()),
      });
      at += 4 + len;
    }
    return events;
  }
}

/** The codec of served kinds: meta/v1, the shared core/v1 messages and each kind's own sets, by API version. */
export function codecFor(defs: readonly { readonly protobuf: ProtoMessages }[]): ProtobufCodec {
  return new ProtobufCodec([CORE_MESSAGES, ...defs.map((d) => d.protobuf)]);
}

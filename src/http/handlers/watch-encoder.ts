/**
 * How a watch's events become bytes: a JSON line, or a protobuf WatchEvent behind a 4-byte
 * big-endian length (`;stream=watch`); as Table rows (`kubectl get -w`) or PartialObjectMetadata
 * (metadata-only informers) when asked. Storage hands every watcher of a change the same event
 * object (the watch cache shares them), so each change is encoded once per representation
 * however many watchers receive it (upstream cachingObject), and the encoder of a
 * representation is shared by every watch that asks for it.
 */
import { isApiObject } from '../../api/object.js';
import type { ProtobufCodec } from '../../api/protobuf/codec.js';
import { buildTable, type IncludeObject } from '../../api/table.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { WatchEvent } from '../../registry/types.js';
import { isProtobuf, type Format } from '../negotiation/media-types.js';
import { partialObjectMetadata, withSelfLink } from './respond.js';

/** The representation a watch asked for. */
export interface WatchRepresentation {
  /** The wire format (Table and metadata-only watches are JSON or protobuf). */
  readonly format: Format;
  /** Table rows of this meta.k8s.io apiVersion, with `include` objects; null: the objects. */
  readonly table: { readonly apiVersion: string; readonly include: IncludeObject } | null;
  /** PartialObjectMetadata of this meta.k8s.io group/version (bookmarks too); null: whole objects. */
  readonly metadataOnly: string | null;
}

/** One event's revision (parsed once) and its bytes by representation. */
export interface Encodings {
  readonly revision: number;
  readonly bytes: Map<WatchEncoder, Buffer>;
}

const encoded = new WeakMap<object, Encodings>();

/** Encoders by store and representation key. */
const encoders = new WeakMap<GenericStore, Map<string, WatchEncoder>>();

/**
 * The shared encoder of `rep` for watches of `store`; `recordSize` is called with each event's
 * size in bytes as it is handed to a watch (apiserver_watch_events_total / _sizes).
 */
export function watchEncoder(
  store: GenericStore,
  rep: WatchRepresentation,
  codec: ProtobufCodec,
  recordSize?: (bytes: number) => void,
): WatchEncoder {
  const key = `${rep.format}|${rep.table ? `${rep.table.apiVersion}|${rep.table.include}` : ''}|${rep.metadataOnly ?? ''}`;
  let byKey = encoders.get(store);
  if (!byKey) encoders.set(store, (byKey = new Map()));
  let encoder = byKey.get(key);
  if (!encoder || encoder.codec !== codec || encoder.recordSize !== recordSize)
    byKey.set(key, (encoder = new WatchEncoder(store, rep, codec, recordSize)));
  return encoder;
}

/** The encoder of one representation of one store's events (see {@link watchEncoder}). */
export class WatchEncoder {
  constructor(
    readonly store: GenericStore,
    private readonly rep: WatchRepresentation,
    readonly codec: ProtobufCodec,
    readonly recordSize?: (bytes: number) => void,
  ) {}

  /** One event as it goes on the wire (for BOOKMARK and ERROR events, which are not shared). */
  frame(type: string, raw: Record<string, unknown>): Buffer {
    const object =
      this.rep.metadataOnly && raw.kind !== 'Status' && isApiObject(raw)
        ? partialObjectMetadata(raw, this.rep.metadataOnly)
        : raw;
    if (isProtobuf(this.rep.format) && this.codec.canEncodeObject(object))
      return this.codec.encodeWatchEvent(type, object);
    return Buffer.from(JSON.stringify({ type, object }) + '\n');
  }

  /**
   * The bytes of an event in this representation: a shared event's (`shared`, see
   * {@link sharedEncodings}) are encoded by the first watch that asks; a BOOKMARK's each time.
   */
  encode(ev: WatchEvent, shared: Encodings | undefined): Buffer {
    if (!shared) return this.frame(ev.type, ev.object);
    let bytes = shared.bytes.get(this);
    if (bytes === undefined) {
      const object = withSelfLink(this.store, ev.object);
      const table = this.rep.table;
      const payload = table
        ? buildTable(
            this.store.def.printer,
            [object],
            { resourceVersion: object.metadata.resourceVersion },
            table.apiVersion,
            table.include,
          )
        : object;
      bytes = this.frame(ev.type, payload);
      shared.bytes.set(this, bytes);
    }
    this.recordSize?.(bytes.length);
    return bytes;
  }
}

/**
 * The revision and encodings every watcher of a storage event shares (made by the first that
 * asks); undefined for a BOOKMARK, which each watch makes for itself.
 */
export function sharedEncodings(ev: WatchEvent): Encodings | undefined {
  if (ev.type === 'BOOKMARK') return undefined;
  let encodings = encoded.get(ev);
  if (!encodings)
    encoded.set(ev, (encodings = { revision: Number(ev.object.metadata.resourceVersion ?? 0), bytes: new Map() }));
  return encodings;
}

/**
 * A compact notation for protobuf message definitions, and its compilation to a protobufjs
 * Root. Each message is one string of fields `name=number[:type][flags]`:
 * - type: a scalar (`string` when omitted, `int32`, `int64`, `bool`, `bytes`), a message
 *   name, `[]T` for a repeated field, `map<T>` for a map with string keys;
 * - flag `!`: a zero value read from the wire is kept (Go pointer fields and fields without
 *   `omitempty`; every other zero value is dropped, as Go's JSON encoder does);
 * - flag `~`: the message is inlined in JSON (Go embedded structs such as Volume's
 *   VolumeSource): its fields appear in the parent object.
 * Field numbers follow upstream's generated.proto files (k8s.io/api core/v1, apimachinery
 * meta/v1 and runtime, openshift/api security/v1, k8s.io/api autoscaling/v1).
 */
import protobuf from 'protobufjs';

/** Message name -> field list in the notation above. */
export type ProtoMessages = Readonly<Record<string, string>>;

/** What the JSON conversion needs to know about a field besides its protobufjs shape. */
export interface FieldTraits {
  readonly keepZero: boolean;
  readonly inline: boolean;
}

const SCALARS = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);

/** A compiled set of messages, every type reference resolved. */
export interface CompiledMessages {
  readonly root: protobuf.Root;
  /** Traits of each field of the root's messages. */
  readonly traits: ReadonlyMap<protobuf.Field, FieldTraits>;
}

/**
 * Most message levels the object codec's messages may nest (an object in JSON may nest twice
 * as deep: a repeated field adds an array). Decoding and the JSON conversion recurse once per
 * message level, so request bodies cannot nest deeper than the message definitions, and no
 * message of an object may contain itself (the OpenAPI v2 document's messages, which do, are
 * only encoded). protobufjs itself also stops decoding at 100 nested messages or groups with
 * "maximum nesting depth exceeded", which covers unknown group fields.
 */
export const MAX_MESSAGE_NESTING = 40;

/**
 * The longest chain of message fields under each message of `root`. Throws Error when a
 * message contains itself (directly or through others).
 */
export function messageNesting(root: protobuf.Root, names: readonly string[]): Map<string, number> {
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (type: protobuf.Type): number => {
    const known = depth.get(type.name);
    if (known !== undefined) return known;
    if (visiting.has(type.name)) throw new Error(`protobuf message ${type.name} contains itself`);
    visiting.add(type.name);
    let d = 1;
    for (const f of type.fieldsArray) if (f.resolvedType && 'fieldsArray' in f.resolvedType) d = Math.max(d, 1 + visit(f.resolvedType as protobuf.Type));
    visiting.delete(type.name);
    depth.set(type.name, d);
    return d;
  };
  for (const name of names) visit(root.lookupType(name));
  return depth;
}

/**
 * Compile message sets into one Root. Throws Error on a malformed field, a duplicate message
 * with different fields, or a reference to a message no set defines.
 */
export function compileMessages(...sets: ProtoMessages[]): CompiledMessages {
  const merged: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, fields] of Object.entries(set)) {
      if (merged[name] !== undefined && merged[name] !== fields) throw new Error(`protobuf message ${name} is defined twice, differently`);
      merged[name] = fields;
    }
  }
  const named = new Map<string, FieldTraits>();
  const nested: Record<string, { fields: Record<string, protobuf.IField> }> = {};
  for (const [name, spec] of Object.entries(merged)) {
    const fields: Record<string, protobuf.IField> = {};
    for (const token of spec.split(/\s+/).filter(Boolean)) {
      const m = /^(\w+)=(\d+)(?::([\w<>[\]]+))?([!~]*)$/.exec(token);
      if (!m) throw new Error(`protobuf message ${name}: bad field "${token}"`);
      const [, field, id, rawType = 'string', flags] = m;
      const map = /^map<(\w+)>$/.exec(rawType);
      const repeated = rawType.startsWith('[]');
      const type = map ? map[1] : rawType.replace(/^\[\]/, '');
      if (!SCALARS.has(type) && !(type in merged)) throw new Error(`protobuf message ${name}.${field}: unknown type ${type}`);
      fields[field] = { id: Number(id), type, ...(repeated ? { rule: 'repeated' } : {}), ...(map ? { keyType: 'string' } : {}) } as protobuf.IField;
      named.set(`${name}.${field}`, { keepZero: flags.includes('!'), inline: flags.includes('~') });
    }
    nested[name] = { fields };
  }
  const root = protobuf.Root.fromJSON({ nested });
  root.resolveAll();
  const traits = new Map<protobuf.Field, FieldTraits>();
  for (const name of Object.keys(nested)) {
    for (const field of root.lookupType(name).fieldsArray) traits.set(field, named.get(`${name}.${field.name}`)!);
  }
  return { root, traits };
}

/** The list message of a kind: `{metadata=1 ListMeta, items=2 repeated Kind}` (upstream's shape for every list). */
export function listMessage(kind: string): ProtoMessages {
  return { [`${kind}List`]: `metadata=1:ListMeta items=2:[]${kind}` };
}

/**
 * A compact notation for protobuf message definitions, and its compilation to a protobufjs
 * Root. Messages are grouped in packages, one per API version (`v1`, `autoscaling/v1`,
 * `rbac.authorization.k8s.io/v1`), as upstream's generated.proto files are: an object's message
 * is found by its group, version and kind, so two groups may each have a kind of one name.
 * Each message is one string of fields `name=number[:type][flags]`:
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

/** Message name -> field list in the notation above: the messages of one package. */
export type MessageSet = Readonly<Record<string, string>>;

/** API version (`v1`, `autoscaling/v1`) -> the messages of its package. */
export type ProtoMessages = Readonly<Record<string, MessageSet>>;

/** `set` as the messages of each of `apiVersions` (a kind served under several groups). */
export function inVersions(set: MessageSet, ...apiVersions: readonly string[]): ProtoMessages {
  return Object.fromEntries(apiVersions.map((v) => [v, set]));
}

/**
 * The messages of `sets` together, package by package. Throws Error on a message a package
 * defines twice, differently.
 */
export function mergeMessages(...sets: readonly ProtoMessages[]): ProtoMessages {
  const merged: Record<string, Record<string, string>> = {};
  for (const set of sets) {
    for (const [version, messages] of Object.entries(set)) {
      const into = (merged[version] ??= {});
      for (const [name, fields] of Object.entries(messages)) {
        if (into[name] !== undefined && into[name] !== fields)
          throw new Error(`protobuf message ${name}${version ? ` of ${version}` : ''} is defined twice, differently`);
        into[name] = fields;
      }
    }
  }
  return merged;
}

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
 * The longest chain of message fields under each of `types`. Throws Error when a message
 * contains itself (directly or through others).
 */
export function messageNesting(types: Iterable<protobuf.Type>): Map<protobuf.Type, number> {
  const depth = new Map<protobuf.Type, number>();
  const visiting = new Set<protobuf.Type>();
  const visit = (type: protobuf.Type): number => {
    const known = depth.get(type);
    if (known !== undefined) return known;
    if (visiting.has(type)) throw new Error(`protobuf message ${type.name} contains itself`);
    visiting.add(type);
    let d = 1;
    for (const f of type.fieldsArray)
      if (f.resolvedType && 'fieldsArray' in f.resolvedType) d = Math.max(d, 1 + visit(f.resolvedType));
    visiting.delete(type);
    depth.set(type, d);
    return d;
  };
  for (const type of types) visit(type);
  return depth;
}

type Parsed = { readonly fields: Record<string, protobuf.IField>; readonly traits: Map<string, FieldTraits> };

/**
 * The fields of message `name` in the notation, message types named as `resolve` gives them.
 * Throws Error on a malformed field or a type `resolve` does not know.
 */
function parseMessage(name: string, spec: string, resolve: (type: string) => string | undefined): Parsed {
  const fields: Record<string, protobuf.IField> = {};
  const traits = new Map<string, FieldTraits>();
  for (const token of spec.split(/\s+/).filter(Boolean)) {
    const m = /^(\w+)=(\d+)(?::([\w<>[\]]+))?([!~]*)$/.exec(token);
    if (!m) throw new Error(`protobuf message ${name}: bad field "${token}"`);
    const [, field, id, rawType = 'string', flags] = m;
    const map = /^map<(\w+)>$/.exec(rawType);
    const repeated = rawType.startsWith('[]');
    const bare = map ? map[1] : rawType.replace(/^\[\]/, '');
    const type = SCALARS.has(bare) ? bare : resolve(bare);
    if (type === undefined) throw new Error(`protobuf message ${name}.${field}: unknown type ${bare}`);
    fields[field] = {
      id: Number(id),
      type,
      ...(repeated ? { rule: 'repeated' } : {}),
      ...(map ? { keyType: 'string' } : {}),
    } as protobuf.IField;
    traits.set(field, { keepZero: flags.includes('!'), inline: flags.includes('~') });
  }
  return { fields, traits };
}

/** The traits of every field of the messages of `namespace`, once its root is resolved. */
function collectTraits(
  namespace: protobuf.Namespace,
  parsed: ReadonlyMap<string, Parsed>,
  into: Map<protobuf.Field, FieldTraits>,
): void {
  for (const [name, { traits }] of parsed) {
    for (const field of namespace.lookupType(name).fieldsArray) into.set(field, traits.get(field.name)!);
  }
}

/**
 * Compile message sets into one Root, without packages (the OpenAPI v2 document's messages).
 * Throws Error on a malformed field, a duplicate message with different fields, or a reference
 * to a message no set defines.
 */
export function compileMessages(...sets: MessageSet[]): CompiledMessages {
  const merged = mergeMessages(...sets.map((set) => ({ '': set })))[''] ?? {};
  const parsed = new Map(
    Object.entries(merged).map(([name, spec]) => [
      name,
      parseMessage(name, spec, (t) => (t in merged ? t : undefined)),
    ]),
  );
  const root = protobuf.Root.fromJSON({
    nested: Object.fromEntries([...parsed].map(([name, p]) => [name, { fields: p.fields }])),
  });
  root.resolveAll();
  const traits = new Map<protobuf.Field, FieldTraits>();
  collectTraits(root, parsed, traits);
  return { root, traits };
}

/** Compiled packages: every message, by API version and name. */
export interface CompiledPackages extends CompiledMessages {
  /** API version -> message name -> its type. */
  readonly packages: ReadonlyMap<string, ReadonlyMap<string, protobuf.Type>>;
}

/** The protobufjs namespace of the package of `apiVersion`. */
const namespaceOf = (apiVersion: string) => `v_${apiVersion.replace(/[^A-Za-z0-9]/g, '_')}`;

/**
 * Compile message sets into one Root with a namespace per API version. A field's message type
 * is the one of its own package, else of the first of `shared` (the packages every other one
 * imports: core/v1, meta/v1) that defines it. Throws Error on a malformed field, a message a
 * package defines twice differently, or a reference to a message none of those packages defines.
 */
export function compilePackages(sets: readonly ProtoMessages[], shared: readonly string[]): CompiledPackages {
  const merged = mergeMessages(...sets);
  const parsed = new Map<string, Map<string, Parsed>>();
  for (const [version, messages] of Object.entries(merged)) {
    const resolve = (type: string) => {
      const from = [version, ...shared].find((v) => merged[v]?.[type] !== undefined);
      return from === undefined ? undefined : `.${namespaceOf(from)}.${type}`;
    };
    parsed.set(
      version,
      new Map(Object.entries(messages).map(([name, spec]) => [name, parseMessage(name, spec, resolve)])),
    );
  }
  const nested: Record<string, { nested: Record<string, { fields: Record<string, protobuf.IField> }> }> = {};
  for (const [version, messages] of parsed) {
    const ns = namespaceOf(version);
    if (nested[ns]) throw new Error(`protobuf packages of two API versions share the name ${ns}`);
    nested[ns] = { nested: Object.fromEntries([...messages].map(([name, p]) => [name, { fields: p.fields }])) };
  }
  const root = protobuf.Root.fromJSON({ nested });
  root.resolveAll();
  const traits = new Map<protobuf.Field, FieldTraits>();
  const packages = new Map<string, Map<string, protobuf.Type>>();
  for (const [version, messages] of parsed) {
    const namespace = root.lookup(namespaceOf(version));
    if (!(namespace instanceof protobuf.Namespace)) throw new Error(`protobuf package ${version} did not compile`);
    collectTraits(namespace, messages, traits);
    packages.set(version, new Map([...messages.keys()].map((name) => [name, namespace.lookupType(name)])));
  }
  return { root, traits, packages };
}

/** The list message of a kind: `{metadata=1 ListMeta, items=2 repeated Kind}` (upstream's shape for every list). */
export function listMessage(kind: string): MessageSet {
  return { [`${kind}List`]: `metadata=1:ListMeta items=2:[]${kind}` };
}

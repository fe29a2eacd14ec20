/**
 * FieldsV1, the wire form of a field set in `metadata.managedFields[].fieldsV1`
 * (structured-merge-diff `fieldpath/serialize.go`): a JSON trie whose keys are serialized path
 * elements (`f:`, `k:`, `v:`, `i:`), whose leaves are `{}`, and where `".": {}` marks a node
 * that is itself a member while also having children. Keys are written in upstream's element
 * order, so encoding is byte for byte upstream's `Set.ToJSON`.
 *
 * In JSON bodies the trie travels as a nested object; in protobuf (ObjectMeta field 17,
 * ManagedFieldsEntry.fieldsV1 = FieldsV1 message with `bytes Raw = 1`) as its JSON text.
 */
import { goString } from './go-format.js';
import { errorMessage } from '../error-message.js';
import { FieldSet } from './field-set.js';
import {
  comparePathElements,
  parsePathElement,
  serializePathElement,
  UnknownPathElementType,
  type PathElement,
} from './path.js';

/** The JSON object form of FieldsV1: `{"f:spec": {"f:replicas": {}}}`. */
export interface FieldsV1 {
  readonly [key: string]: FieldsV1;
}

/** Encode a set as a FieldsV1 object whose key order is upstream's. */
export function toFieldsV1(set: FieldSet): FieldsV1 {
  return emit(set, false);
}

/** Encode a set as FieldsV1 JSON text, as upstream `Set.ToJSON` writes it (protobuf `Raw`). */
export function fieldsV1Text(set: FieldSet): string {
  return write(toFieldsV1(set));
}

function write(node: FieldsV1): string {
  return `{${Object.keys(node)
    .map((k) => `${goString(k)}:${write(node[k])}`)
    .join(',')}}`;
}

function emit(set: FieldSet, includeSelf: boolean): FieldsV1 {
  const out: Record<string, FieldsV1> = {};
  if (includeSelf && !set.empty()) out['.'] = {};
  const members = set.members;
  const children = set.childEntries();
  let i = 0;
  let j = 0;
  while (i < members.length || j < children.length) {
    const c = i >= members.length ? 1 : j >= children.length ? -1 : comparePathElements(members[i], children[j].pe);
    if (c < 0) out[serializePathElement(members[i++])] = {};
    else {
      const child = children[j++];
      out[serializePathElement(child.pe)] = emit(child.set, c === 0);
      if (c === 0) i++;
    }
  }
  return out;
}

/**
 * Decode FieldsV1 (an object or its JSON text) into a set, as upstream `Set.FromJSON`: keys
 * of unknown element types are skipped, a node with no children is a member. Throws Error for
 * malformed JSON, a non-object node, or a malformed element key.
 */
export function fromFieldsV1(fields: unknown): FieldSet {
  const parsed: unknown = typeof fields === 'string' ? JSON.parse(fields) : fields;
  if (!isNode(parsed)) throw new Error('managedFields parsing: FieldsV1 must be a JSON object');
  return read(parsed).children ?? FieldSet.EMPTY;
}

function isNode(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function read(node: Record<string, unknown>): { children?: FieldSet; isMember: boolean } {
  let isMember = false;
  let any = false;
  const members: PathElement[] = [];
  const children: { pe: PathElement; set: FieldSet }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (!isNode(value)) throw new Error(`managedFields parsing: value of ${JSON.stringify(key)} is not an object`);
    if (key === '.') {
      isMember = true;
      continue;
    }
    let pe: PathElement;
    try {
      pe = parsePathElement(key);
    } catch (err) {
      if (err instanceof UnknownPathElementType) continue;
      throw new Error(`parsing key as path element: ${errorMessage(err)}`, { cause: err });
    }
    const sub = read(value);
    if (sub.isMember) {
      members.push(pe);
      any = true;
    }
    if (sub.children) {
      children.push({ pe, set: sub.children });
      any = true;
    }
  }
  if (!any) return { isMember: true };
  return { children: FieldSet.fromParts(members, children), isMember };
}

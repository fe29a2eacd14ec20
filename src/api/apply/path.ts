/**
 * Field paths of server-side apply (structured-merge-diff `fieldpath/element.go`, `path.go`,
 * `serialize-pe.go`): a path is a list of elements, each a field name, a list-map item key, a
 * set member's value, or a list index. Elements have upstream's total order (fields < keys <
 * values < indices), its printed form (`.spec.containers[name="c"].image`) and its FieldsV1
 * form (`f:image`, `k:{"name":"c"}`, `v:"x"`, `i:0`). Pure; no I/O.
 */
import { compareStrings, goJson, goNumber, goString } from './go-format.js';
import { compareValues, equalValues, valueToString } from './value.js';
import { isMap, type Json } from '../json.js';

/** One field of a list-map item's key. */
export interface KeyField {
  readonly name: string;
  readonly value: Json;
}

/** One step of a path. Key fields are always sorted by name (upstream `FieldList.Sort`). */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: Json }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

/** A field name element (`.name`). */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

const isKeyFieldList = (fields: Readonly<Record<string, Json>> | readonly KeyField[]): fields is readonly KeyField[] =>
  Array.isArray(fields);

/** A list-map item key element from `{name: value}` pairs, sorted by name (`[name="c"]`). */
export function keyElement(fields: Readonly<Record<string, Json>> | readonly KeyField[]): PathElement {
  const list: KeyField[] = isKeyFieldList(fields)
    ? [...fields]
    : Object.entries(fields).map(([name, value]) => ({ name, value }));
  list.sort((a, b) => compareStrings(a.name, b.name));
  return { kind: 'key', fields: list };
}

/** A set member element (`[="x"]`). */
export function valueElement(value: Json): PathElement {
  return { kind: 'value', value };
}

/** A list index element (`[0]`). */
export function indexElement(index: number): PathElement {
  return { kind: 'index', index };
}

/** A path from strings (field names), numbers (indices) and elements, as upstream `MakePathOrDie`. */
export function makePath(...parts: readonly (string | number | PathElement)[]): Path {
  return parts.map((p) => (typeof p === 'string' ? fieldElement(p) : typeof p === 'number' ? indexElement(p) : p));
}

const ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** upstream `PathElement.Compare`: -1, 0 or 1. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return ORDER[a.kind] < ORDER[b.kind] ? -1 : 1;
  if (a.kind === 'field' && b.kind === 'field') return compareStrings(a.name, b.name);
  if (a.kind === 'key' && b.kind === 'key') return compareKeys(a.fields, b.fields);
  if (a.kind === 'value' && b.kind === 'value') return compareValues(a.value, b.value);
  if (a.kind === 'index' && b.kind === 'index') return a.index === b.index ? 0 : a.index < b.index ? -1 : 1;
  return 0;
}

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareStrings(a[i].name, b[i].name) || compareValues(a[i].value, b[i].value);
    if (c !== 0) return c;
  }
}

/** Element equality (upstream `PathElement.Equals`). */
export function equalPathElements(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'key' && b.kind === 'key') {
    const bf = b.fields;
    return (
      a.fields.length === bf.length &&
      a.fields.every((f, i) => f.name === bf[i].name && equalValues(f.value, bf[i].value))
    );
  }
  return comparePathElements(a, b) === 0;
}

/** Path equality. */
export function equalPaths(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((pe, i) => equalPathElements(pe, b[i]));
}

/** upstream `PathElement.String`: `.name`, `[name="c",port=80]`, `[="x"]`, `[0]`. */
export function pathElementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${goNumber(pe.index)}]`;
  }
}

/** upstream `Path.String`, as conflict messages print a field: `.spec.containers[name="c"].image`. */
export function pathToString(path: Path): string {
  return path.map(pathElementToString).join('');
}

/** The FieldsV1 key of an element: `f:<name>`, `k:<JSON of the key>`, `v:<JSON>`, `i:<index>`. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map((f) => `${goString(f.name)}:${goJson(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJson(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** Thrown by parsePathElement for a type letter other than f, k, v, i (upstream skips those). */
export class UnknownPathElementType extends Error {}

/**
 * Parse a FieldsV1 key (upstream `DeserializePathElement`). Throws Error for a key shorter than
 * 2 characters, a missing colon, malformed JSON or index; UnknownPathElementType for other letters.
 */
export function parsePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error(`key must be 2 characters long: ${s}`);
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const rest = s.slice(2);
  switch (s[0]) {
    case 'f':
      return fieldElement(rest);
    case 'v': {
      const value: Json = JSON.parse(rest);
      return valueElement(value);
    }
    case 'k': {
      const parsed: unknown = JSON.parse(rest);
      if (!isMap(parsed)) throw new Error(`key is not a JSON object: ${s}`);
      return keyElement(Object.entries(parsed).map(([name, value]) => ({ name, value })));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(rest)) throw new Error(`invalid index: ${s}`);
      return indexElement(Number(rest));
    }
    default:
      throw new UnknownPathElementType(`unknown path element type: ${s}`);
  }
}

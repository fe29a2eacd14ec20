/**
 * The path element of a list item and the checks upstream makes when it turns an object into
 * a typed value (structured-merge-diff `typed/helpers.go` listItemToPathElement, `typed/
 * validate.go`): a map-list item is named by its key fields (with key defaults, sorted by
 * name), a set member by its value; keyless map-list items, non-scalar set members,
 * duplicates (unless allowed, as for live objects) and, given the kind's schema type, fields
 * it does not declare are errors with upstream's messages.
 */
import { goQuote } from './go-format.js';
import {
  indexElement,
  keyElement,
  pathElementToString,
  serializePathElement,
  valueElement,
  type KeyField,
  type PathElement,
} from './path.js';
import { fieldInfo, isAtomicMap, itemInfo, listInfo, type ListInfo, type TypeInfo } from './type-info.js';
import { fieldType, type SchemaType } from './schema-type.js';
import { isList, isMap, type Json } from '../json.js';
import { errorMessage } from '../error-message.js';

/** The path element of `item` in a `map` or `set` list. Throws Error with upstream's message. */
export function itemElement(item: Json, info: ListInfo): PathElement {
  if (info.type === 'map') {
    if (item === null) throw new Error('associative list with keys may not have a null element');
    if (!isMap(item)) throw new Error('associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const name of info.keys) {
      if (Object.hasOwn(item, name)) fields.push({ name, value: item[name] });
      else if (Object.hasOwn(info.keyDefaults, name)) fields.push({ name, value: info.keyDefaults[name] });
    }
    if (info.keys.length > 0 && fields.length === 0) {
      throw new Error(
        `associative list with keys has an element that omits all key fields [${info.keys.map(goQuote).join(' ')}] (and doesn't have default values for any key fields)`,
      );
    }
    return keyElement(fields);
  }
  if (isMap(item)) throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(item)) throw new Error('not supported: associative list with lists as elements');
  if (item === null) throw new Error("associative list without keys has an element that's an explicit null");
  return valueElement(item);
}

/** A path element for each item, or undefined where the item has none (errors were reported by validate). */
export function itemElements(list: readonly Json[], info: ListInfo): (PathElement | undefined)[] {
  return list.map((item) => {
    try {
      return itemElement(item, info);
    } catch {
      return undefined;
    }
  });
}

/** The canonical identity of an element, for maps keyed by element. */
export function elementId(pe: PathElement): string {
  return serializePathElement(pe);
}

/**
 * The problems upstream's typed conversion reports for a value, as `path: message` strings
 * (empty when none), in the order structured-merge-diff's validating walk finds them: item key
 * errors (the rest of that list is then skipped), duplicate items unless `allowDuplicates`,
 * and, when `type` is given, keys an object does not declare (`.spec.foo: field not declared
 * in schema`; the rest of that object is then skipped, as typed/validate.go visitMapItems stops).
 */
export function typedProblems(
  value: Json | undefined,
  meta: TypeInfo,
  allowDuplicates: boolean,
  type?: SchemaType,
): string[] {
  const out: string[] = [];
  walk(value, meta, type, '', allowDuplicates, out);
  return out;
}

/** upstream ValidationErrors.Error(): one problem as is, several as an indented list. */
export function formatProblems(problems: readonly string[]): string {
  return problems.length === 1 ? problems[0] : ['errors:', ...problems.map((p) => `  ${p}`)].join('\n');
}

function walk(
  value: Json | undefined,
  meta: TypeInfo,
  type: SchemaType | undefined,
  path: string,
  allowDuplicates: boolean,
  out: string[],
): void {
  if (isList(value)) {
    // A value of another type than the schema's is the kind's validation's business.
    if (type && !type.list) return;
    const info = listInfo(meta);
    if (info.type === 'atomic' && !type) return;
    const seen = new Set<string>();
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      let pe: PathElement = indexElement(i);
      if (info.type !== 'atomic') {
        try {
          pe = itemElement(item, info);
        } catch (err) {
          out.push(`${path}: element ${i}: ${errorMessage(err)}`);
          return;
        }
        const id = elementId(pe);
        if (seen.has(id) && !allowDuplicates) out.push(`${path}: duplicate entries for key ${pathElementToString(pe)}`);
        seen.add(id);
      }
      walk(item, itemInfo(meta), type?.list, path + pathElementToString(pe), allowDuplicates, out);
    }
    return;
  }
  if (isMap(value)) {
    if (type && !type.map) return;
    if (!type && isAtomicMap(meta)) return;
    for (const [k, v] of Object.entries(value)) {
      const child = type?.map ? fieldType(type.map, k) : undefined;
      if (type && !child) {
        out.push(`${path}.${k}: field not declared in schema`);
        return;
      }
      walk(v, fieldInfo(meta, k), child, `${path}.${k}`, allowDuplicates, out);
    }
  }
}

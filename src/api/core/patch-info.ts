/**
 * What one schema node declares about patches, recorded on the zod schema itself (a zod 4
 * registry): upstream's struct tags beside the field. Strategic merge patch reads `merge` and
 * `retainKeys` (k8s.io/api types.go `patchStrategy`, `patchMergeKey`); server-side apply reads
 * the list type, list-map keys and key defaults, and atomic maps and structs (today's
 * `+listType`, `+listMapKey`, `+default`, `+mapType`, `+structType`). schema-kit's helpers
 * (`mergedList`, `setList`, `atomic`) declare them; `patch-meta.ts` derives every kind's
 * metadata tree from them. Pure; no I/O.
 */
import { z } from 'zod';

/** The patch facts of one schema node (a list, or a map or struct). */
export interface PatchInfo {
  /** For list values: merge strategy (absent = replace). */
  readonly merge?: { readonly key?: string };
  /** `retainKeys` strategy (volumes' sources). */
  readonly retainKeys?: boolean;
  /** Server-side apply list type (`+listType`); absent: derived from `merge` (type-info.ts). */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** Server-side apply keys of a `map` list (`+listMapKey`, in tag order); absent: `[merge.key]`. */
  readonly listMapKeys?: readonly string[];
  /** Defaults of list-map key fields (`+default`), used when an item omits them. */
  readonly keyDefaults?: Readonly<Record<string, string | number | boolean>>;
  /** Server-side apply map/struct type (`+mapType`, `+structType`): `atomic` is owned and replaced whole. */
  readonly mapType?: 'granular' | 'atomic';
  /** Strategic merge replaces this map or struct whole instead of merging into it (`patchStrategy:"replace"`). */
  readonly replace?: boolean;
}

/** How a merged list matches its items. */
export interface MergeKeys {
  /** Strategic merge key (`patchMergeKey`); also the first list-map key. */
  readonly key: string;
  /** Server-side apply keys (`+listMapKey`, in tag order) when more than `key`; must include it. */
  readonly keys?: readonly string[];
  /** Values of key fields an item may omit (`+default`); only for keys. */
  readonly defaults?: Readonly<Record<string, string | number | boolean>>;
  /** `patchStrategy:"merge,retainKeys"` (a volume keeps only the source it names). */
  readonly retainKeys?: boolean;
}

/** The registry holding every declaration, keyed by schema instance (clones inherit). */
export const patchInfo = z.registry<PatchInfo>();

/** The schema a wrapper (optional, nullable; a pipe's input) holds, or undefined for any other schema. */
function wrappedBy(t: z.ZodType): z.ZodType | undefined {
  const inner =
    t instanceof z.ZodOptional || t instanceof z.ZodNullable
      ? t.def.innerType
      : t instanceof z.ZodPipe
        ? t.def.in
        : undefined;
  return inner instanceof z.ZodType ? inner : undefined;
}

/** The schemas from `schema` inwards through optional, nullable and pipe wrappers, outermost first. */
function layers(schema: z.ZodType): [z.ZodType, ...z.ZodType[]] {
  const out: [z.ZodType, ...z.ZodType[]] = [schema];
  for (let inner = wrappedBy(schema); inner; inner = wrappedBy(inner)) out.push(inner);
  return out;
}

/** The schema inside optional, nullable and pipe wrappers. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let t = schema;
  for (let inner = wrappedBy(t); inner; inner = wrappedBy(t)) t = inner;
  return t;
}

/** What `schema` declares, on it or on any wrapper (the outermost wins). */
export function infoOf(schema: z.ZodType): PatchInfo {
  return layers(schema).reduceRight<PatchInfo>((acc, layer) => ({ ...acc, ...patchInfo.get(layer) }), {});
}

/** The fields of an object schema (inside wrappers), or undefined for other schemas. */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const t = unwrapped(schema);
  return t instanceof z.ZodObject ? t.shape : undefined;
}

/** The schema of the items of a list schema or of the values of a map schema (inside wrappers); undefined for other schemas. */
export function itemsOf(schema: z.ZodType): z.ZodType | undefined {
  const t = unwrapped(schema);
  const inner = t instanceof z.ZodArray ? t.def.element : t instanceof z.ZodRecord ? t.def.valueType : undefined;
  return inner instanceof z.ZodType ? inner : undefined;
}

/** Problems of declaring `info` on `schema`: list facts on lists only, map type on objects and maps only. */
function misplaced(schema: z.ZodType, info: PatchInfo): string | undefined {
  const type = unwrapped(schema).def.type;
  const listFacts = info.merge || info.retainKeys || info.listType || info.listMapKeys || info.keyDefaults;
  if (listFacts && type !== 'array') return `list patch facts on a ${type}`;
  if (info.mapType && type !== 'object' && type !== 'record') return `a map type on a ${type}`;
  if (info.replace && type !== 'object' && type !== 'record')
    return `a replace strategy on a ${type} (lists without merge are replaced)`;
  return undefined;
}

/** A copy of `schema` (same validation and description) declaring `info` besides what it already declares. */
export function declared<T extends z.ZodType>(schema: T, info: PatchInfo): T {
  const problem = misplaced(schema, info);
  if (problem) throw new Error(`patch metadata: ${problem}`);
  const copy = schema.clone();
  // The registry's lookup merges in what the original declares (zod clones inherit).
  patchInfo.add(copy, info);
  return copy;
}

/**
 * The patch facts of a list of `item` merged by `by`. Throws Error when a key is not a field
 * of the items, `keys` leaves out `key`, or a default is for a field that is not a key.
 */
export function mergeInfo(item: z.ZodType, by: MergeKeys): PatchInfo {
  const fields = shapeOf(item);
  const keys = by.keys ?? [by.key];
  if (!keys.includes(by.key))
    throw new Error(`patch metadata: merge key ${by.key} is not among the list-map keys ${keys.join(', ')}`);
  for (const k of keys)
    if (!fields || !Object.hasOwn(fields, k))
      throw new Error(`patch metadata: merge key ${k} is not a field of the list's items`);
  for (const k of Object.keys(by.defaults ?? {}))
    if (!keys.includes(k)) throw new Error(`patch metadata: default for ${k}, which is not a key`);
  return {
    merge: { key: by.key },
    ...(by.retainKeys ? { retainKeys: true } : {}),
    ...(by.keys ? { listMapKeys: by.keys } : {}),
    ...(by.defaults ? { keyDefaults: by.defaults } : {}),
  };
}

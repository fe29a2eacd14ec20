/**
 * The shape of a kind as server-side apply's typed conversion sees it: which fields each
 * object declares and what its other keys may be (structured-merge-diff `schema.Map` with its
 * `Fields` and `ElementType`, `schema.List` with its `ElementType`), as kube-openapi
 * pkg/schemaconv (openapi.go) builds it from OpenAPI. A key an object neither declares nor
 * admits is refused: `.spec.foo: field not declared in schema` (structured-merge-diff
 * typed/validate.go visitMapItems). Scalar types are not kept: a value of the wrong type is
 * left to the kind's validation.
 *
 * Also the type of a zod schema ({@link schemaTypeOfZod}): strict objects declare their shape,
 * records and loose objects admit any key, and what it cannot read exactly admits anything.
 * Pure; no I/O.
 */
import type { z } from 'zod';

/** One node's type: a value may be a map (object), a list, a scalar, or several of these. */
export interface SchemaType {
  /** When a map is allowed: its declared fields and the type of any other key. */
  readonly map?: MapType;
  /** When a list is allowed: the type of its items. */
  readonly list?: SchemaType;
  /** A scalar is allowed (its type is not checked here). */
  readonly scalar?: boolean;
}

/** The keys of an object node (structured-merge-diff schema.Map). */
export interface MapType {
  /** Declared fields (struct members), by name. */
  readonly fields: Readonly<Record<string, SchemaType>>;
  /** The type of keys not in `fields`; absent: such keys are not declared (refused). */
  readonly values?: SchemaType;
}

/**
 * Anything (structured-merge-diff's `__untyped_deduced_` and `__untyped_atomic_`): any scalar,
 * any list, any map of anything.
 */
export const DEDUCED: SchemaType = (() => {
  const fields: Record<string, SchemaType> = {};
  const self: { map?: MapType; list?: SchemaType; scalar: boolean } = { scalar: true };
  self.map = { fields, values: self };
  self.list = self;
  return Object.freeze(self);
})();

/** A scalar of some type. */
export const SCALAR: SchemaType = Object.freeze({ scalar: true });

/** The type of field `name` of a map node: declared, else the map's values; undefined: not declared. */
export function fieldType(map: MapType, name: string): SchemaType | undefined {
  return Object.hasOwn(map.fields, name) ? map.fields[name] : map.values;
}

/** A struct of `fields` that declares nothing else. */
export function struct(fields: Readonly<Record<string, SchemaType>>): SchemaType {
  return { map: { fields } };
}

/** zod 4's definition of a schema node, as far as it is read here. */
interface ZodDef {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly catchall?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly element?: z.ZodType;
  readonly valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

const SCALARS = new Set(['string', 'number', 'int', 'boolean', 'bigint', 'enum', 'literal', 'null', 'date']);
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);

/**
 * The type of a zod schema: a strict object (catchall `never`) declares its shape and nothing
 * else; a record's keys take its value type; a loose or stripping object, a union, a lazy or
 * any other construct admits anything ({@link DEDUCED}), so a valid value is never refused.
 */
export function schemaTypeOfZod(schema: z.ZodType, depth = 0): SchemaType {
  if (depth > 64) return DEDUCED;
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return schemaTypeOfZod(def.innerType, depth + 1);
  if (def.type === 'pipe' && def.in) return schemaTypeOfZod(def.in, depth + 1);
  if (SCALARS.has(def.type)) return SCALAR;
  if (def.type === 'array' && def.element) return { list: schemaTypeOfZod(def.element, depth + 1) };
  if (def.type === 'record' && def.valueType)
    return { map: { fields: {}, values: schemaTypeOfZod(def.valueType, depth + 1) } };
  if (def.type === 'object' && def.shape && def.catchall && defOf(def.catchall).type === 'never') {
    const fields: Record<string, SchemaType> = {};
    for (const [name, field] of Object.entries(def.shape)) fields[name] = schemaTypeOfZod(field, depth + 1);
    return struct(fields);
  }
  return DEDUCED;
}

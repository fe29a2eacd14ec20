/**
 * zod schema -> OpenAPI 3.0 schema object, annotated with the strategic-merge-patch metadata
 * kubectl reads from OpenAPI (`x-kubernetes-patch-merge-key`, `x-kubernetes-patch-strategy`)
 * and, from the same metadata, server-side apply's `x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys` and `x-kubernetes-map-type`, as upstream's kube-openapi emits
 * them, plus int-or-string markers. The metadata is the kind's PatchMeta tree, derived from
 * what the same schema declares (`patchMetaOf`, api/core/patch-meta.ts): the tree the server
 * patches with, so OpenAPI tells clients what the server does. Pure; no I/O.
 */
import type { z } from 'zod';
import type { PatchMeta } from './core/patch-meta.js';
import { ssaExtensions } from './apply/type-info.js';

export type OpenApiSchema = Record<string, unknown>;

/** What the conversion reads of a zod schema's definition (zod 4's `def`). */
interface ZodNode {
  readonly description?: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly def: {
    readonly type: string;
    readonly innerType?: ZodNode;
    readonly in?: ZodNode;
    readonly element?: z.ZodType;
    readonly valueType?: z.ZodType;
    readonly entries?: Record<string, unknown>;
    readonly checks?: ReadonlyArray<{
      readonly _zod?: { readonly def?: { readonly format?: string; readonly check?: string } };
    }>;
  };
}

const nodeOf = (schema: z.ZodType | ZodNode): ZodNode => schema as unknown as ZodNode;

function unwrap(schema: z.ZodType): ZodNode {
  let t = nodeOf(schema);
  while (t.def.type === 'optional' || t.def.type === 'nullable' || t.def.type === 'pipe')
    t = (t.def.type === 'pipe' ? t.def.in : t.def.innerType)!;
  return t;
}

function isOptional(schema: z.ZodType): boolean {
  let t = nodeOf(schema);
  while (t.def.type === 'nullable' || t.def.type === 'optional') {
    if (t.def.type === 'optional') return true;
    t = t.def.innerType!;
  }
  return false;
}

/** The description given with `.describe()` on the schema or any optional/nullable wrapper of it. */
function descriptionOf(schema: z.ZodType): string | undefined {
  let t = nodeOf(schema);
  for (;;) {
    if (t.description) return t.description;
    if (t.def.type !== 'optional' && t.def.type !== 'nullable') return undefined;
    t = t.def.innerType!;
  }
}

/** Convert `schema`, annotating lists from `meta` (the matching patch metadata node) and fields with their descriptions. */
export function toOpenApi(schema: z.ZodType, meta?: PatchMeta): OpenApiSchema {
  const description = descriptionOf(schema);
  const out = convert(schema, meta);
  return description ? { description, ...out } : out;
}

function convert(schema: z.ZodType, meta?: PatchMeta): OpenApiSchema {
  const t = unwrap(schema);
  switch (t.def.type) {
    case 'object': {
      const properties: Record<string, OpenApiSchema> = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(t.shape ?? {})) {
        properties[key] = toOpenApi(value, meta?.fields?.[key]);
        if (!isOptional(value)) required.push(key);
      }
      const out: OpenApiSchema = { type: 'object', properties, ...ssaExtensions(meta, false) };
      if (meta?.replace) out['x-kubernetes-patch-strategy'] = 'replace';
      if (required.length) out.required = required;
      return out;
    }
    case 'array': {
      const out: OpenApiSchema = {
        type: 'array',
        items: toOpenApi(t.def.element!, meta?.items),
        ...ssaExtensions(meta, true),
      };
      if (meta?.merge) {
        out['x-kubernetes-patch-strategy'] = meta.retainKeys ? 'merge,retainKeys' : 'merge';
        if (meta.merge.key) out['x-kubernetes-patch-merge-key'] = meta.merge.key;
      }
      return out;
    }
    case 'record':
      return {
        type: 'object',
        additionalProperties: toOpenApi(t.def.valueType!, meta?.items),
        ...ssaExtensions(meta, false),
      };
    case 'string':
      return { type: 'string' };
    case 'number':
      return (t.def.checks ?? []).some(
        (c) => c._zod?.def?.format === 'safeint' || c._zod?.def?.check === 'number_format',
      )
        ? { type: 'integer', format: 'int64' }
        : { type: 'number' };
    case 'int':
      return { type: 'integer', format: 'int64' };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: Object.keys(t.def.entries ?? {}) };
    case 'union':
      // Quantities and int-or-string values.
      return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    default:
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
}

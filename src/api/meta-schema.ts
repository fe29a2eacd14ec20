/**
 * zod shape of the fields every object shares: ObjectMeta (meta/v1) and the envelope
 * (apiVersion, kind, metadata). Unknown fields pass through here; per-kind schemas live in
 * `resources/<kind>`.
 */
import { z } from 'zod';

const stringMap = z.record(z.string(), z.string());

export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

export const objectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  selfLink: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  creationTimestamp: z.string().nullable().optional(),
  deletionTimestamp: z.string().nullable().optional(),
  deletionGracePeriodSeconds: z.number().int().nullable().optional(),
  labels: stringMap.nullable().optional(),
  annotations: stringMap.nullable().optional(),
  ownerReferences: z.array(ownerReferenceSchema).nullable().optional(),
  finalizers: z.array(z.string()).nullable().optional(),
  clusterName: z.string().optional(),
});

/** The envelope every request body must have; `fields` adds the kind's own top-level fields. */
export function objectSchema(fields: Record<string, z.ZodType> = {}): z.ZodType {
  return z.looseObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: objectMetaSchema.optional(),
    ...fields,
  });
}

/** An optional nested object whose own fields are not checked yet. */
export const anyObject = z.looseObject({}).nullable().optional();
/** An optional map of string to string. */
export const optionalStringMap = stringMap.nullable().optional();

/** ObjectMeta with every field of the spec, strict (unknown fields are reported). */
export const strictObjectMeta = z
  .strictObject({
    annotations: z.record(z.string(), z.string()).nullable().optional(),
    clusterName: z.string().nullable().optional(),
    creationTimestamp: z.string().nullable().optional(),
    deletionGracePeriodSeconds: z.number().int().nullable().optional(),
    deletionTimestamp: z.string().nullable().optional(),
    finalizers: z.array(z.string()).nullable().optional(),
    generateName: z.string().nullable().optional(),
    generation: z.number().int().nullable().optional(),
    initializers: z
      .strictObject({ pending: z.array(z.strictObject({ name: z.string() })).nullable().optional(), result: z.looseObject({}).nullable().optional() })
      .nullable()
      .optional(),
    labels: z.record(z.string(), z.string()).nullable().optional(),
    name: z.string().nullable().optional(),
    namespace: z.string().nullable().optional(),
    ownerReferences: z
      .array(
        z.strictObject({
          apiVersion: z.string(),
          blockOwnerDeletion: z.boolean().nullable().optional(),
          controller: z.boolean().nullable().optional(),
          kind: z.string(),
          name: z.string(),
          uid: z.string(),
        }),
      )
      .nullable()
      .optional(),
    resourceVersion: z.string().nullable().optional(),
    selfLink: z.string().nullable().optional(),
    uid: z.string().nullable().optional(),
  })
  .nullable()
  .optional();

/** A kind's schema: apiVersion, kind, metadata, and its own top-level fields; strict. */
export function kindSchema(fields: Record<string, z.ZodType> = {}): z.ZodType {
  return z.strictObject({ apiVersion: z.string().optional(), kind: z.string().optional(), metadata: strictObjectMeta, ...fields });
}

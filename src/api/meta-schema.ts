/**
 * zod shape of the fields every object shares: ObjectMeta (meta/v1), described once here (the
 * ObjectMeta type is inferred from it), and the envelope (apiVersion, kind, metadata).
 * Per-kind schemas live in `resources/<kind>`.
 */
import { z } from 'zod';
import { mergedList, setList, timeString } from './core/schema-kit.js';

/**
 * One `metadata.managedFields` entry (meta/v1 ManagedFieldsEntry, server-side apply): which
 * manager owns which fields (a FieldsV1 trie), through which operation, at what time.
 */
export const managedFieldsEntrySchema = z.strictObject({
  manager: z.string().optional().describe('Name of the workflow managing these fields (the field manager).'),
  operation: z.string().optional().describe('Apply (server-side apply) or Update (any other write).'),
  apiVersion: z.string().optional().describe('Version of the resource the fields were written in.'),
  time: timeString.nullable().optional().describe('When the entry last changed (RFC 3339).'),
  fieldsType: z.string().optional().describe('Format of fieldsV1; only FieldsV1.'),
  fieldsV1: z.looseObject({}).nullable().optional().describe('The set of fields owned, as a trie of f:/k:/v:/i: keys.'),
  subresource: z.string().optional().describe('The subresource the entry was written through, if any.'),
});

/** The fields of ObjectMeta (meta/v1), each described once: the one description of ObjectMeta. */
const objectMetaShape = {
  annotations: z
    .record(z.string(), z.string())
    .nullable()
    .optional()
    .describe('Unstructured key/value data stored with the object, for tools and extensions. Not queryable.'),
  clusterName: z
    .string()
    .nullable()
    .optional()
    .describe('Name of the cluster the object belongs to. Unused by the server.'),
  creationTimestamp: z
    .string()
    .nullable()
    .optional()
    .describe('When the server created the object (RFC 3339, UTC). Set by the server; read-only.'),
  deletionGracePeriodSeconds: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Seconds the object is allowed to terminate gracefully once deletionTimestamp is set. Read-only.'),
  deletionTimestamp: z
    .string()
    .nullable()
    .optional()
    .describe(
      'When the object will be deleted (RFC 3339). Set by the server when a graceful deletion is requested; read-only.',
    ),
  finalizers: setList(z.string()).describe(
    'Entries that must be removed before the object is deleted from storage. While any remain, a deleted object only gets a deletionTimestamp.',
  ),
  generateName: z
    .string()
    .nullable()
    .optional()
    .describe('Prefix the server uses to generate a unique name when name is empty (a random suffix is added).'),
  generation: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe('Sequence number of the desired state, incremented by the server on spec changes. Read-only.'),
  initializers: z
    .strictObject({
      pending: mergedList(z.strictObject({ name: z.string() }), { key: 'name' }),
      result: z.looseObject({}).nullable().optional(),
    })
    .nullable()
    .optional()
    .describe('Pending initializers of an object that is not initialized yet (alpha).'),
  labels: z
    .record(z.string(), z.string())
    .nullable()
    .optional()
    .describe('Key/value pairs for organising and selecting objects (label selectors).'),
  managedFields: z
    .array(managedFieldsEntrySchema)
    .nullable()
    .optional()
    .describe('Which field manager owns which fields, kept by the server for server-side apply.'),
  name: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Name of the object, unique within its namespace (or cluster-wide for cluster-scoped kinds). Cannot be updated.',
    ),
  namespace: z
    .string()
    .nullable()
    .optional()
    .describe('Namespace the object lives in; empty for cluster-scoped kinds. Cannot be updated.'),
  ownerReferences: mergedList(
    z.strictObject({
      apiVersion: z.string(),
      blockOwnerDeletion: z.boolean().nullable().optional(),
      controller: z.boolean().nullable().optional(),
      kind: z.string(),
      name: z.string(),
      uid: z.string(),
    }),
    { key: 'uid' },
  ).describe('Objects this one depends on. When every owner is gone the object is garbage collected.'),
  resourceVersion: z
    .string()
    .nullable()
    .optional()
    .describe('Opaque version of the object, changed on every write. Used for optimistic concurrency and for watches.'),
  selfLink: z.string().nullable().optional().describe('URL of this object. Set by the server; read-only.'),
  uid: z
    .string()
    .nullable()
    .optional()
    .describe('Unique id of the object in time and space. Set by the server; read-only.'),
};

/** ObjectMeta with every field of the spec, strict (unknown fields are reported). */
export const strictObjectMeta = z.strictObject(objectMetaShape).nullable().optional();

/** ObjectMeta (meta/v1) as its schema describes it: every field optional, as on the wire. */
export type ObjectMeta = NonNullable<z.infer<typeof strictObjectMeta>>;

/** The envelope every request body must have; `fields` adds the kind's own top-level fields. */
export function objectSchema(fields: Record<string, z.ZodType> = {}): z.ZodType {
  return z.looseObject({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: z.looseObject(objectMetaShape).optional(),
    ...fields,
  });
}

/** A kind's schema: apiVersion, kind, metadata, and its own top-level fields; strict. */
export function kindSchema<T extends z.ZodRawShape = Record<never, never>>(fields: T = {} as T) {
  return z.strictObject({
    apiVersion: z
      .string()
      .optional()
      .describe('Versioned schema of this representation of the object (v1, or group/version).'),
    kind: z.string().optional().describe('The REST resource this object represents, in CamelCase (Pod, Service, ...).'),
    metadata: strictObjectMeta.describe(
      'Standard object metadata: name, namespace, labels, annotations, and the fields the server maintains.',
    ),
    ...fields,
  });
}

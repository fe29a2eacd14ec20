/**
 * Building blocks for the per-kind zod schemas, with upstream wire types: integers, booleans,
 * quantities (`100m`, `1Gi`, or a JSON number), int-or-string, RFC 3339 times (or null),
 * base64 bytes, string maps and lists. Objects are strict: unknown fields surface as
 * `unrecognized_keys` issues, which the field-validation step reports or prunes.
 *
 * Lists and maps also state here, beside the field, how patches merge them (upstream's struct
 * tags): `mergedList(item, { key })` (`patchStrategy:"merge"`, `patchMergeKey`, and for
 * server-side apply `+listType=map` with its `+listMapKey`s and key `+default`s), `setList`
 * (merged primitives, `+listType=set`), `replacedSetList` (`+listType=set` that strategic merge
 * replaces), `replacedByPatch(...)` (`patchStrategy:"replace"` on a struct), `atomic(...)`
 * (`+mapType=atomic` / `+structType=atomic`).
 * `patch-info.ts` records them on the schema; `patch-meta.ts` derives strategic merge, server-side
 * apply and OpenAPI metadata from them.
 */
import { z } from 'zod';
import { parseQuantity, QuantityError } from '../quantity.js';
import { declared, mergeInfo, type MergeKeys } from './patch-info.js';

/** Every nested object is strict so unknown fields can be found; optional and nullable. */
export const obj = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape).nullable().optional();
/** A required strict object. */
export const reqObj = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);

export const str = z.string().nullable().optional();
export const reqStr = z.string();
export const int = z.number().int().nullable().optional();
export const reqInt = z.number().int();
export const bool = z.boolean().nullable().optional();
export const strList = z.array(z.string()).nullable().optional();
export const strMap = z.record(z.string(), z.string()).nullable().optional();
export const list = <T extends z.ZodType>(item: T) => z.array(item).nullable().optional();
export const reqList = <T extends z.ZodType>(item: T) => z.array(item);
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullable().optional();

/**
 * A list whose items strategic merge matches by `by.key` (`patchStrategy:"merge"`,
 * `patchMergeKey`) and server-side apply by `by.keys` (default `[by.key]`); `by.retainKeys`
 * for `merge,retainKeys` (volumes). Throws Error when a key is not a field of `item`.
 */
export const mergedList = <T extends z.ZodType>(item: T, by: MergeKeys) => declared(list(item), mergeInfo(item, by));
/** A required {@link mergedList} (PodSpec containers). */
export const reqMergedList = <T extends z.ZodType>(item: T, by: MergeKeys) =>
  declared(reqList(item), mergeInfo(item, by));
/** A list of primitives merged as a set (`patchStrategy:"merge"` without a key; `+listType=set`). */
export const setList = <T extends z.ZodType>(item: T) => declared(list(item), { merge: {} });
/**
 * A list of primitives that server-side apply treats as a set (`+listType=set`) but strategic
 * merge replaces, having no `patchStrategy` (EndpointSlice addresses).
 */
export const replacedSetList = <T extends z.ZodType>(item: T) => declared(list(item), { listType: 'set' });
/**
 * `schema` (an object or a map) that strategic merge replaces whole rather than merging into
 * (`patchStrategy:"replace"`: a PodDisruptionBudget's selector). Throws Error for other schemas.
 */
export const replacedByPatch = <T extends z.ZodType>(schema: T): T => declared(schema, { replace: true });
/**
 * `schema` (an object or a map) owned and replaced as one value by server-side apply
 * (`+structType=atomic`, `+mapType=atomic`). Throws Error for other schemas.
 */
export const atomic = <T extends z.ZodType>(schema: T): T => declared(schema, { mapType: 'atomic' });

/**
 * resource.Quantity: a JSON number, or a string upstream's UnmarshalJSON accepts (ParseQuantity
 * after trimming: `500m`, `1.5Gi`, `1e400`, even `+` or `.`); otherwise upstream's error
 * (ErrFormatWrong, ErrSuffix or ErrNumeric) as the field's message.
 */
export const quantity = z.union([
  z.number(),
  z.string().superRefine((text, ctx) => {
    try {
      parseQuantity(text);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      ctx.addIssue({ code: 'custom', message: err.message });
    }
  }),
]);
export const quantityMap = z.record(z.string(), quantity).nullable().optional();

/**
 * A port protocol. Upstream accepts only `TCP` / `UDP`; manifests in the wild also say `tcp`
 * (one in our corpus), so the case is not enforced and the value is kept as written.
 */
export const protocolString = z
  .string()
  .refine((v) => ['TCP', 'UDP'].includes(v.toUpperCase()), 'supported values: "TCP", "UDP"');
export const protocol = protocolString.nullable().optional();

/**
 * A port protocol as today's upstream accepts it (SCTP is GA since 1.20): `TCP`, `UDP` or
 * `SCTP`, the case not enforced as for {@link protocolString}.
 */
export const portProtocolString = z
  .string()
  .refine((v) => ['SCTP', 'TCP', 'UDP'].includes(v.toUpperCase()), 'supported values: "SCTP", "TCP", "UDP"');
export const portProtocol = portProtocolString.nullable().optional();

/** intstr.IntOrString. */
export const intOrString = z.union([z.number().int(), z.string()]).nullable().optional();

/** metav1.Time: RFC 3339, or null for the zero time. */
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
export const timeString = z.string().regex(RFC3339, 'must be an RFC 3339 time');
export const time = timeString.nullable().optional();

/** []byte in JSON: standard base64. */
export const base64 = z
  .string()
  .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be base64 encoded');
export const bytesMap = z.record(z.string(), base64).nullable().optional();

/** ObjectReference (claimRef, involvedObject, related, target, targetRef, secrets, configMapRef). */
export const objectReference = {
  apiVersion: str,
  fieldPath: str,
  kind: str,
  name: str,
  namespace: str,
  resourceVersion: str,
  uid: str,
};

/** LocalObjectReference ({name}). */
export const localRef = { name: str };

/** A label selector with matchLabels and matchExpressions. */
export const labelSelector = obj({
  matchExpressions: list(reqObj({ key: reqStr, operator: reqStr, values: strList })),
  matchLabels: strMap,
});

/** `shape` with the descriptions of `docs` attached to its fields (for OpenAPI and `kubectl explain`). */
export function described<T extends Record<string, z.ZodType>>(shape: T, docs: Partial<Record<keyof T, string>>): T {
  const out: Record<string, z.ZodType> = { ...shape };
  for (const [key, text] of Object.entries(docs)) if (text && out[key]) out[key] = out[key].describe(text as string);
  return out as unknown as T;
}

/**
 * Structural types of stored objects as they travel through the server. Objects are plain JSON
 * values; the per-kind zod schemas in `resources/<kind>` describe their fields.
 */

/** metadata.ownerReferences[] entry. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** ObjectMeta (meta/v1), every field optional as on the wire. Timestamps are RFC 3339 strings. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  selfLink?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string | null;
  deletionGracePeriodSeconds?: number | null;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  initializers?: { pending?: { name: string }[]; result?: unknown } | null;
  finalizers?: string[];
  clusterName?: string;
}

/** Any API object: apiVersion, kind, metadata, and the kind's own fields. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** ListMeta (meta/v1). */
export interface ListMeta {
  selfLink?: string;
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** A typed list: `<Kind>List`. Items are encoded without their own kind/apiVersion, as upstream. */
export interface ApiList {
  kind: string;
  apiVersion: string;
  metadata: ListMeta;
  items: ApiObject[];
}

/** Deep copy of a JSON value (objects here are always plain JSON). */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}

/** RFC 3339 UTC at second precision, as metav1.Time marshals (`2018-03-26T15:04:05Z`). */
export function rfc3339(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `metadata.managedFields` in and out (k8s.io/apimachinery `pkg/util/managedfields/internal`
 * managedfields.go, fieldmanager.go decodeLiveOrNew / isResetManagedFields): entries decode to
 * manager sets keyed by upstream's manager identifier (the entry's JSON without fields, time
 * and, for appliers, apiVersion) and encode back sorted by operation, time, manager,
 * apiVersion and subresource.
 */
import { compareStrings, goString } from './go-format.js';
import { FieldSet } from './field-set.js';
import { fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import type { z } from 'zod';
import { errorMessage } from '../error-message.js';
import { isRecord, recordOf } from '../json.js';
import type { managedFieldsEntrySchema } from '../meta-schema.js';

/** One `metadata.managedFields[]` entry (meta/v1 ManagedFieldsEntry) as its schema describes it. */
export type ManagedFieldsEntry = z.infer<typeof managedFieldsEntrySchema>;

/** What one manager owns. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Manager identifier -> owned set, and identifier -> time of its last change. */
export interface Managed {
  readonly sets: Map<string, VersionedSet>;
  readonly times: Map<string, string | undefined>;
}

/** The parts of an entry that identify its manager. */
export interface ManagerInfo {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly subresource?: string;
  /** Only in identifiers built elsewhere: upstream's own never carry a time. */
  readonly time?: string;
}

export const emptyManaged = (): Managed => ({ sets: new Map(), times: new Map() });

/** upstream BuildManagerIdentifier: `{"manager":"kubectl","operation":"Apply"}`, `{"manager":"x","operation":"Update","apiVersion":"v1"}`. */
export function managerIdentifier(info: ManagerInfo): string {
  const parts: string[] = [];
  if (info.manager) parts.push(`"manager":${goString(info.manager)}`);
  parts.push(`"operation":${goString(info.operation)}`);
  if (info.operation !== 'Apply' && info.apiVersion) parts.push(`"apiVersion":${goString(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goString(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** The manager info an identifier encodes. */
export function parseManagerIdentifier(id: string): ManagerInfo {
  const e = recordOf(JSON.parse(id));
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    manager: text(e.manager) ?? '',
    operation: e.operation === 'Apply' ? 'Apply' : 'Update',
    apiVersion: text(e.apiVersion),
    subresource: text(e.subresource),
    time: text(e.time),
  };
}

/**
 * Decode entries into manager sets. Throws Error with upstream's message for an operation other
 * than Apply/Update, an empty apiVersion, a missing or unknown fieldsType, or malformed fields.
 */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[]): Managed {
  const managed = emptyManaged();
  entries.forEach((e, i) => {
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new Error('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new Error('apiVersion must not be empty');
    if (!e.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1')
      throw new Error(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier({
      manager: e.manager ?? '',
      operation: e.operation,
      apiVersion: e.apiVersion,
      subresource: e.subresource,
    });
    let set: FieldSet;
    try {
      set = e.fieldsV1 === undefined || e.fieldsV1 === null ? FieldSet.EMPTY : fromFieldsV1(e.fieldsV1);
    } catch (err) {
      throw new Error(`error decoding versioned set from entry ${i}: error decoding set: ${errorMessage(err)}`, {
        cause: err,
      });
    }
    managed.sets.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    managed.times.set(id, e.time ?? undefined);
  });
  return managed;
}

/** Encode manager sets as entries, in upstream's order. Empty when no manager owns anything. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.sets) {
    const info = parseManagerIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : info.operation;
    e.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) e.time = time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    out.push(e);
  }
  return sortManagedFields(out);
}

/** Entries in upstream's order (sortEncodedManagedFields): Apply first, then by time, manager, apiVersion, subresource. */
export function sortManagedFields(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  return entries.sort(compareEntries);
}

const seconds = (t?: string | null) => (t ? Math.floor(Date.parse(t) / 1000) || 0 : 0);

function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    compareStrings(p.operation ?? '', q.operation ?? '') ||
    Math.sign(seconds(p.time) - seconds(q.time)) ||
    compareStrings(p.manager ?? '', q.manager ?? '') ||
    compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') ||
    compareStrings(p.subresource ?? '', q.subresource ?? '')
  );
}

/**
 * True when a write asks to clear managedFields: an empty list, or a list of one empty entry
 * (`managedFields: [{}]`), as upstream isResetManagedFields. Absent (undefined/null) is not.
 */
export function isResetManagedFields(requested: unknown): boolean {
  if (!Array.isArray(requested)) return false;
  if (requested.length === 0) return true;
  const e: unknown = requested[0];
  if (requested.length !== 1 || !isRecord(e)) return false;
  const scalarsEmpty = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'subresource'].every(
    (k) => e[k] === undefined || e[k] === null || e[k] === '',
  );
  return scalarsEmpty && (e.fieldsV1 === undefined || e.fieldsV1 === null);
}

/**
 * The managed fields a non-apply write starts from (upstream decodeLiveOrNew): on a
 * subresource always the stored ones; a reset request clears them; entries sent with the
 * request are used when they decode to at least one manager; otherwise (absent, empty or
 * undecodable) the stored ones. Undecodable stored entries count as none.
 */
export function managedForUpdate(
  stored: readonly ManagedFieldsEntry[] | undefined,
  requested: unknown,
  isSubresource: boolean,
): Managed {
  const decodeOrEmpty = (entries: unknown): Managed => {
    try {
      return isEntryList(entries) ? decodeManagedFields(entries) : emptyManaged();
    } catch {
      return emptyManaged();
    }
  };
  if (isSubresource) return decodeOrEmpty(stored);
  if (isResetManagedFields(requested)) return emptyManaged();
  const fromRequest = decodeOrEmpty(requested);
  return fromRequest.sets.size > 0 ? fromRequest : decodeOrEmpty(stored);
}

/**
 * Whether `v` is a list of entries (objects; their fields are what the schema of
 * `metadata.managedFields` let through). Anything else decodes to no managers.
 */
function isEntryList(v: unknown): v is readonly ManagedFieldsEntry[] {
  return Array.isArray(v) && v.every(isRecord);
}

/** A deep-enough copy of a Managed to change without touching the original. */
export function copyManaged(m: Managed): Managed {
  return { sets: new Map(m.sets), times: new Map(m.times) };
}

/**
 * The field manager of the generic store (upstream k8s.io/apiserver handlers' FieldManager):
 * every create and update records which manager owns which fields in `metadata.managedFields`,
 * and server-side apply merges a configuration into the live object. The algorithms live in
 * `api/apply`; this module supplies a kind's facts: its apiVersion and kind, its list types
 * (the strategic-merge metadata) and the fields each write path resets (upstream
 * GetResetFields: `status` on the main resource of kinds with a status subresource, `spec` on
 * `/status`).
 */
import { apply, recordUpdate, type ApplyResult, type WriteContext } from '../api/apply/field-manager.js';
import { FieldSet } from '../api/apply/field-set.js';
import type { ManagedFieldsEntry } from '../api/apply/managed-fields.js';
import { makePath } from '../api/apply/path.js';
import type { JsonMap } from '../api/apply/value.js';
import type { ApiObject } from '../api/object.js';
import { apiVersionOf, type ResourceDefinition, type SubresourceDefinition } from './types.js';

/** Where a write of `def` (through `subresource`, if any) happens, for the field manager. */
export function writeContext(def: ResourceDefinition, subresource?: SubresourceDefinition): WriteContext {
  const hasStatus = def.subresources.some((s) => s.name === 'status');
  const ignored = subresource?.name === 'status' ? FieldSet.of(makePath('spec')) : !subresource && hasStatus ? FieldSet.of(makePath('status')) : undefined;
  const view = subresource?.present ? { apiVersion: subresource.apiVersion ?? apiVersionOf(def), kind: subresource.kind } : { apiVersion: apiVersionOf(def), kind: def.kind };
  return { ...view, subresource: subresource?.name, ignored };
}

/** The stored managedFields of an object. */
export function managedFieldsOf(obj: ApiObject | null): ManagedFieldsEntry[] | undefined {
  const entries = (obj?.metadata as { managedFields?: unknown } | undefined)?.managedFields;
  return Array.isArray(entries) ? (entries as ManagedFieldsEntry[]) : undefined;
}

/**
 * `obj` with the managedFields after a non-apply write by `manager` (create when `old` is
 * null). Never fails (upstream UpdateNoErrors).
 */
export function trackWrite(def: ResourceDefinition, old: ApiObject | null, obj: ApiObject, manager: string, subresource?: SubresourceDefinition): ApiObject {
  const meta = subresource?.present ? undefined : def.patchMeta;
  const res = recordUpdate(old as unknown as JsonMap | null, obj as unknown as JsonMap, manager, managedFieldsOf(old), meta, writeContext(def, subresource));
  return res.object as unknown as ApiObject;
}

/**
 * Server-side apply of `config` by `manager` onto `live` (null: absent), through `subresource`
 * if any. Returns upstream's outcome: the merged object with its managedFields, the
 * conflicts, or a request problem.
 */
export function applyConfig(
  def: ResourceDefinition,
  live: ApiObject | null,
  config: ApiObject,
  manager: string,
  force: boolean,
  subresource?: SubresourceDefinition,
): ApplyResult {
  const meta = subresource?.present ? undefined : def.patchMeta;
  return apply(live as unknown as JsonMap | null, config as unknown as JsonMap, manager, managedFieldsOf(live), meta, { ...writeContext(def, subresource), force });
}

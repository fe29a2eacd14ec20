/**
 * The field manager of the generic store (upstream k8s.io/apiserver handlers' FieldManager):
 * every create and update records which manager owns which fields in `metadata.managedFields`
 * ({@link trackWrite}), and server-side apply merges a configuration into the live object and
 * records its manager ({@link trackApply}). The algorithms live in `api/apply`; this module
 * supplies a kind's facts: its apiVersion and kind, its list types (the strategic-merge
 * metadata) and the fields each write path resets (upstream GetResetFields: `status` on the
 * main resource of kinds with a status subresource, `spec` on `/status`).
 */
import { recordApply, recordUpdate, type ApplyResult, type WriteContext } from '../api/apply/field-manager.js';
import { FieldSet } from '../api/apply/field-set.js';
import type { ManagedFieldsEntry } from '../api/apply/managed-fields.js';
import { makePath } from '../api/apply/path.js';
import { isMap, type JsonMap } from '../api/json.js';
import { withOwn, type ApiObject } from '../api/object.js';
import { apiVersionOf, type ResourceDefinition, type SubresourceDefinition } from './types.js';

/** Where a write of `def` (through `subresource`, if any) happens, for the field manager. */
export function writeContext<T extends ApiObject>(
  def: ResourceDefinition<T>,
  subresource?: SubresourceDefinition<T>,
): WriteContext {
  const hasStatus = def.subresources.some((s) => s.name === 'status');
  const ignored =
    subresource?.name === 'status'
      ? FieldSet.of(makePath('spec'))
      : !subresource && hasStatus
        ? FieldSet.of(makePath('status'))
        : undefined;
  const view = subresource?.present
    ? { apiVersion: subresource.apiVersion ?? apiVersionOf(def), kind: subresource.kind }
    : { apiVersion: apiVersionOf(def), kind: def.kind };
  return { ...view, subresource: subresource?.name, ignored };
}

/** The stored managedFields of an object. */
export function managedFieldsOf(obj: ApiObject | null): ManagedFieldsEntry[] | undefined {
  const entries = obj?.metadata?.managedFields;
  return Array.isArray(entries) ? entries : undefined;
}

/** An object as the JSON value the field manager's algorithms read (objects are plain JSON). */
function jsonOf(obj: ApiObject): JsonMap {
  return isMap(obj) ? obj : {};
}

/**
 * `obj` with the managedFields after a non-apply write by `manager` (create when `old` is
 * null). Never fails (upstream UpdateNoErrors).
 */
export function trackWrite<T extends ApiObject>(
  def: ResourceDefinition<T>,
  old: T | null,
  obj: T,
  manager: string,
  subresource?: SubresourceDefinition<T>,
): T {
  const meta = subresource?.present ? undefined : def.patchMeta;
  const res = recordUpdate(
    old && jsonOf(old),
    jsonOf(obj),
    manager,
    managedFieldsOf(old),
    meta,
    writeContext(def, subresource),
  );
  // What recordUpdate answers is `obj` with these managedFields (none: the field dropped).
  const { managedFields: _replaced, ...metadata } = obj.metadata;
  return withOwn(
    obj,
    'metadata',
    res.managedFields.length ? withOwn(metadata, 'managedFields', res.managedFields) : metadata,
  );
}

/**
 * Server-side apply of `config` by `manager` onto `live` (null: absent), through `subresource`
 * if any. Returns upstream's outcome: the merged object with its managedFields, the
 * conflicts, or a request problem.
 */
export function trackApply<T extends ApiObject>(
  def: ResourceDefinition<T>,
  live: ApiObject | null,
  config: ApiObject,
  manager: string,
  force: boolean,
  subresource?: SubresourceDefinition<T>,
): ApplyResult {
  const meta = subresource?.present ? undefined : def.patchMeta;
  return recordApply(live && jsonOf(live), jsonOf(config), manager, managedFieldsOf(live), meta, {
    ...writeContext(def, subresource),
    force,
    type: subresource?.present ? undefined : def.applyType,
  });
}

/**
 * The field manager every write goes through (k8s.io/apimachinery `pkg/util/managedfields/
 * internal`: fieldmanager.go, versioncheck.go, lastappliedupdater.go, lastappliedmanager.go,
 * skipnonapplied.go, capmanagers.go, buildmanagerinfo.go, managedfieldsupdater.go,
 * stripmeta.go, structuredmerge.go), as two pure functions:
 *
 * - `recordUpdate` for create, update and non-apply patch: who owns what after the write;
 * - `recordApply` for `application/apply-patch+yaml`: the merged object and its managedFields, or
 *   the conflicts, or a request error.
 *
 * Both take the stored managedFields entries and return new entries; objects are plain JSON,
 * never modified. Times are `ctx.now` (default: the clock) at second precision.
 */
import { conflictOf, type Conflict } from './conflict.js';
import { FieldSet } from './field-set.js';
import { compareStrings } from './go-format.js';
import { allowedConflictsFromLastApplied, KUBECTL_MANAGER, syncLastApplied } from './last-applied.js';
import { formatProblems, typedProblems } from './list-items.js';
import {
  copyManaged,
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  managedForUpdate,
  managerIdentifier,
  type Managed,
  type ManagedFieldsEntry,
} from './managed-fields.js';
import { makePath } from './path.js';
import { dropNulls } from './remove.js';
import type { SchemaType } from './schema-type.js';
import type { TypeInfo } from './type-info.js';
import { zeroObject } from './zero-object.js';
import { mergeConfiguration, updateManagers } from './updater.js';
import { equalValues } from './value.js';
import { isMap, type Json, type JsonMap } from '../json.js';
import { errorMessage } from '../error-message.js';

/** Where a write happens. */
export interface WriteContext {
  /** The kind's apiVersion as clients write it (`v1`, `security.platform.io/v1`). */
  readonly apiVersion: string;
  /** The kind (apply checks the configuration's). */
  readonly kind: string;
  /** The subresource written (`status`), if any. */
  readonly subresource?: string;
  /** Fields this write path resets (upstream reset fields: `status` on the main resource, `spec` on `/status`). */
  readonly ignored?: FieldSet;
  /** The clock (default: now). */
  readonly now?: Date;
  /** The kind's zero object, the "before" of a create (default: zeroObject(kind)). */
  readonly emptyObject?: JsonMap;
  /** At most this many Update entries are kept (default 10). */
  readonly maxUpdateManagers?: number;
  /**
   * The kind's schema type: an apply configuration with a field it does not declare is refused
   * (upstream's typed conversion); absent: fields are not checked.
   */
  readonly type?: SchemaType;
}

/** The outcome of recordUpdate: the object with its new managedFields. */
export interface UpdateResult {
  readonly object: JsonMap;
  /** The entries to store (empty: the object carries none). */
  readonly managedFields: ManagedFieldsEntry[];
}

/** The outcome of apply. */
export type ApplyResult =
  | {
      readonly status: 'applied';
      readonly object: JsonMap;
      readonly managedFields: ManagedFieldsEntry[];
      readonly changed: boolean;
    }
  | { readonly status: 'conflict'; readonly conflicts: readonly Conflict[] }
  | { readonly status: 'invalid'; readonly code: 400 | 500; readonly message: string };

export const MAX_UPDATE_MANAGERS = 10;
const CURRENT_OPERATION = 'current-operation';
const BEFORE_FIRST_APPLY = 'before-first-apply';
const ANCIENT_CHANGES = 'ancient-changes';
/** Paths never owned by anyone (upstream stripmeta). */
export const STRIPPED_FIELDS = FieldSet.of(
  ...[
    [],
    ['name'],
    ['namespace'],
    ['creationTimestamp'],
    ['selfLink'],
    ['uid'],
    ['clusterName'],
    ['generation'],
    ['managedFields'],
    ['resourceVersion'],
  ].map((p) => makePath('metadata', ...p)),
  makePath('apiVersion'),
  makePath('kind'),
);

const timeOf = (ctx: WriteContext) => (ctx.now ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');

function withoutManagedFields(obj: JsonMap): JsonMap {
  if (!isMap(obj.metadata) || !Object.hasOwn(obj.metadata, 'managedFields')) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function withManagedFields(obj: JsonMap, entries: ManagedFieldsEntry[]): JsonMap {
  const base = withoutManagedFields(obj);
  if (entries.length === 0) return base;
  return {
    ...base,
    metadata: { ...(isMap(base.metadata) ? base.metadata : {}), managedFields: entries as unknown as Json },
  };
}

function zeroOf(like: JsonMap, ctx: WriteContext): JsonMap {
  return ctx.emptyObject ?? zeroObject(ctx.kind, like);
}

/** upstream managedFieldsUpdater + stripMeta + structuredMerge Update, under identifier `id`. */
function recordAs(
  old: JsonMap,
  updated: JsonMap,
  managed: Managed,
  id: string,
  meta: TypeInfo,
  ctx: WriteContext,
): Managed {
  const sets = updateManagers(old, updated, ctx.apiVersion, managed.sets, CURRENT_OPERATION, meta, ctx.ignored);
  const out: Managed = { sets, times: new Map(managed.times) };
  const current = sets.get(CURRENT_OPERATION);
  sets.delete(CURRENT_OPERATION);
  const set = current?.set.difference(STRIPPED_FIELDS);
  if (current && set && !set.empty()) {
    const previous = sets.get(id)?.set ?? FieldSet.EMPTY;
    sets.set(id, { set: set.union(previous), apiVersion: current.apiVersion, applied: false });
    out.times.set(id, timeOf(ctx));
  }
  return out;
}

/** upstream capManagersManager: merge the oldest Update entries into `ancient-changes` per apiVersion. */
function capUpdateManagers(managed: Managed, max: number): Managed {
  const updaters = [...managed.sets].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return managed;
  const secs = (id: string) => Math.floor(Date.parse(managed.times.get(id) ?? '') / 1000) || 0;
  updaters.sort((a, b) => secs(a) - secs(b) || compareStrings(a, b));
  const out = copyManaged(managed);
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = out.sets.get(id)!;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!out.sets.has(bucket)) {
      out.sets.set(bucket, out.sets.get(first)!);
      out.sets.delete(first);
    }
    out.sets.set(bucket, { set: vs.set.union(out.sets.get(bucket)!.set), apiVersion: vs.apiVersion, applied: false });
    out.sets.delete(id);
    out.times.set(bucket, managed.times.get(id));
    length--;
  }
  for (const id of out.times.keys()) if (!out.sets.has(id)) out.times.delete(id);
  return out;
}

/** The Update chain below skipNonApplied: buildManagerInfo, managedFieldsUpdater, capManagers. */
function updateChain(
  old: JsonMap,
  updated: JsonMap,
  managed: Managed,
  manager: string,
  meta: TypeInfo,
  ctx: WriteContext,
): Managed {
  const id = managerIdentifier({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: ctx.apiVersion,
    subresource: ctx.subresource,
  });
  return capUpdateManagers(
    recordAs(old, updated, managed, id, meta, ctx),
    ctx.maxUpdateManagers ?? MAX_UPDATE_MANAGERS,
  );
}

/**
 * Record a non-apply write (create: `old` null) by `manager` (the fieldManager query, else
 * managerFromUserAgent). `stored` are the live object's entries; the request's own are read
 * from `updated.metadata.managedFields` (a reset `[]`/`[{}]` clears them, decodable entries
 * replace the stored ones, anything else keeps them; a subresource always keeps them). An
 * existing object that tracks no managers is not tracked by updates (upstream
 * skipNonApplied); a create always is. Never fails: undecodable entries count as none, and
 * objects that are not valid typed values keep the stored entries (upstream UpdateNoErrors).
 */
export function recordUpdate(
  old: JsonMap | null,
  updated: JsonMap,
  manager: string,
  stored: readonly ManagedFieldsEntry[] | undefined,
  meta: TypeInfo,
  ctx: WriteContext,
): UpdateResult {
  const requested = isMap(updated.metadata) ? updated.metadata.managedFields : undefined;
  const managed = managedForUpdate(stored, requested, ctx.subresource !== undefined && ctx.subresource !== '');
  const after = withoutManagedFields(updated);
  if (managed.sets.size === 0 && old !== null) return { object: after, managedFields: [] };
  const before = old === null ? zeroOf(after, ctx) : withoutManagedFields(old);
  if (typedProblems(before, meta, true).length > 0 || typedProblems(after, meta, true).length > 0) {
    return { object: withManagedFields(after, [...(stored ?? [])]), managedFields: [...(stored ?? [])] };
  }
  const entries = encodeManagedFields(updateChain(before, after, managed, manager, meta, ctx));
  return { object: withManagedFields(after, entries), managedFields: entries };
}

/** The apply chain below lastAppliedManager: skipNonApplied, buildManagerInfo, managedFieldsUpdater, stripMeta, Updater.Apply. */
function applyChain(
  live: JsonMap,
  config: JsonMap,
  managed: Managed,
  manager: string,
  force: boolean,
  meta: TypeInfo,
  ctx: WriteContext,
): ApplyResult {
  let m = managed;
  if (m.sets.size === 0) m = updateChain(zeroOf(live, ctx), live, m, BEFORE_FIRST_APPLY, meta, ctx);
  const id = managerIdentifier({ manager, operation: 'Apply', subresource: ctx.subresource });
  const res = mergeConfiguration(live, config, ctx.apiVersion, m.sets, id, force, meta, ctx.ignored);
  if ('conflicts' in res)
    return { status: 'conflict', conflicts: res.conflicts.map((c) => conflictOf(c.manager, c.path)) };
  const sets = res.managers;
  const own = sets.get(id);
  if (own) {
    const set = own.set.difference(STRIPPED_FIELDS);
    if (set.empty()) sets.delete(id);
    else sets.set(id, { ...own, set });
  }
  const times = new Map(m.times);
  if (res.changed) times.set(id, timeOf(ctx));
  for (const k of times.keys()) if (!sets.has(k)) times.delete(k);
  const object = res.changed && isMap(res.object) ? dropNulls(res.object) : live;
  const entries = encodeManagedFields({ sets, times });
  return {
    status: 'applied',
    object: withManagedFields(object, entries),
    managedFields: entries,
    changed: res.changed,
  };
}

const gvkString = (apiVersion: string, kind: string) =>
  `${apiVersion.includes('/') ? '' : '/'}${apiVersion}, Kind=${kind}`;

function nameOf(obj: JsonMap): string {
  const m = isMap(obj.metadata) ? obj.metadata : {};
  return `${typeof m.namespace === 'string' ? m.namespace : ''}/${typeof m.name === 'string' ? m.name : ''}`;
}

/**
 * Server-side apply of `config` by `manager` onto `live` (null: the object does not exist
 * yet), given the live object's stored managedFields. Answers the merged object (not yet
 * defaulted or validated) with its managedFields, the conflicts (409), or `invalid`: 400 for a
 * configuration of another kind or apiVersion or one carrying managedFields, 500 (as upstream)
 * for undecodable stored managedFields and for objects that are not valid typed values
 * (duplicate or keyless list items; in the configuration, fields `ctx.type` does not declare).
 */
export function recordApply(
  live: JsonMap | null,
  config: JsonMap,
  manager: string,
  stored: readonly ManagedFieldsEntry[] | undefined,
  meta: TypeInfo,
  ctx: WriteContext & { readonly force?: boolean },
): ApplyResult {
  let managed: Managed;
  try {
    managed = stored ? decodeManagedFields(stored) : emptyManaged();
  } catch (err) {
    return { status: 'invalid', code: 500, message: `failed to decode managed fields: ${errorMessage(err)}` };
  }
  const configGvk = gvkString(
    typeof config.apiVersion === 'string' ? config.apiVersion : '',
    typeof config.kind === 'string' ? config.kind : '',
  );
  if (config.apiVersion !== ctx.apiVersion || config.kind !== ctx.kind) {
    return { status: 'invalid', code: 400, message: `invalid object type: ${configGvk}` };
  }
  if (isMap(config.metadata) && config.metadata.managedFields !== undefined && config.metadata.managedFields !== null) {
    return { status: 'invalid', code: 400, message: 'metadata.managedFields must be nil' };
  }
  const configProblems = typedProblems(config, meta, false, ctx.type);
  if (configProblems.length > 0) {
    return {
      status: 'invalid',
      code: 500,
      message: `failed to create typed patch object (${nameOf(config)}; ${configGvk}): ${formatProblems(configProblems)}`,
    };
  }
  const liveObj = live === null ? zeroOf(config, ctx) : withoutManagedFields(live);
  const liveProblems = typedProblems(liveObj, meta, true);
  if (liveProblems.length > 0) {
    return {
      status: 'invalid',
      code: 500,
      message: `failed to create typed live object (${nameOf(liveObj)}; ${gvkString(ctx.apiVersion, ctx.kind)}): ${formatProblems(liveProblems)}`,
    };
  }
  let result = applyChain(liveObj, config, managed, manager, ctx.force ?? false, meta, ctx);
  if (manager === KUBECTL_MANAGER && result.status === 'conflict') {
    const allowed = allowedConflictsFromLastApplied(liveObj, ctx.apiVersion, meta);
    if (allowed) {
      const remaining = result.conflicts.filter((c) => !allowed.has(c.path));
      result =
        remaining.length === 0
          ? applyChain(liveObj, config, managed, manager, true, meta, ctx)
          : { status: 'conflict', conflicts: remaining };
    }
  }
  if (manager === KUBECTL_MANAGER && result.status === 'applied') {
    const object = syncLastApplied(result.object, config);
    result = { ...result, object, changed: result.changed || !equalValues(object, result.object) };
  }
  return result;
}

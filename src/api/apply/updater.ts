/**
 * The merge engine (structured-merge-diff `merge/update.go` Updater), over one API version:
 *
 * - `updateManagers` (Update): the fields a write added or changed become the writer's; they
 *   and the removed fields leave every other manager's set; empty sets are dropped.
 * - `mergeConfiguration` (Apply): merge the configuration into the live object, make the config's
 *   field set the applier's, remove what the applier applied last time and no longer applies
 *   unless another manager (or the new config) owns it (`prune`), then fail with conflicts when
 *   a changed field is owned by another manager, unless forced (forcing takes the fields away
 *   from those managers). Equal values are shared, never conflicts.
 *
 * Managers are keyed by identifier (see managed-fields.ts); `ignored` are fields the write path
 * resets (upstream IgnoredFields / reset fields), which nobody gains or loses by this write.
 */
import { compareObjects, type Comparison } from './compare.js';
import { FieldSet } from './field-set.js';
import { compareStrings } from './go-format.js';
import type { VersionedSet } from './managed-fields.js';
import { mergeValues } from './merge.js';
import type { Path } from './path.js';
import { ensureNamedFieldsAreMembers, removeItems } from './remove.js';
import { toFieldSet } from './to-field-set.js';
import type { TypeInfo } from './type-info.js';
import { equalValues } from './value.js';
import type { Json } from '../json.js';

export type ManagerSets = Map<string, VersionedSet>;

/** One field owned by another manager whose value the apply would change. */
export interface ManagerConflict {
  /** The owner's identifier. */
  readonly manager: string;
  readonly path: Path;
}

const filtered = (set: FieldSet, ignored?: FieldSet) => (ignored ? set.recursiveDifference(ignored) : set);

/** upstream Updater.update: strip changed and removed fields from every manager but `workflow`. */
function update(
  oldObj: Json,
  newObj: Json,
  managers: ManagerSets,
  workflow: string,
  force: boolean,
  meta: TypeInfo,
  ignored?: FieldSet,
): { managers: ManagerSets; compare: Comparison } | { conflicts: ManagerConflict[] } {
  const raw = compareObjects(oldObj, newObj, meta);
  const compare = {
    added: filtered(raw.added, ignored),
    modified: filtered(raw.modified, ignored),
    removed: filtered(raw.removed, ignored),
  };
  const changed = compare.modified.union(compare.added);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, vs] of managers) {
    if (manager === workflow) continue;
    const c = vs.set.intersection(changed);
    if (!c.empty()) conflicts.set(manager, c);
  }
  if (!force && conflicts.size > 0) {
    const out: ManagerConflict[] = [];
    for (const manager of [...conflicts.keys()].sort(compareStrings))
      for (const path of conflicts.get(manager)!.paths()) out.push({ manager, path });
    return { conflicts: out };
  }
  const next: ManagerSets = new Map();
  for (const [manager, vs] of managers) {
    const set =
      manager === workflow
        ? vs.set
        : vs.set.difference(conflicts.get(manager) ?? FieldSet.EMPTY).difference(compare.removed);
    if (!set.empty()) next.set(manager, { ...vs, set });
  }
  return { managers: next, compare };
}

/** Record a non-apply write by `manager` (upstream Updater.Update). */
export function updateManagers(
  oldObj: Json,
  newObj: Json,
  version: string,
  managers: ManagerSets,
  manager: string,
  meta: TypeInfo,
  ignored?: FieldSet,
): ManagerSets {
  const res = update(oldObj, newObj, managers, manager, true, meta, ignored);
  if ('conflicts' in res) throw new Error('unreachable: forced update reported conflicts');
  const { managers: next, compare } = res;
  const previous = next.get(manager)?.set ?? FieldSet.EMPTY;
  const set = filtered(previous.difference(compare.removed).union(compare.modified).union(compare.added), ignored);
  if (set.empty()) next.delete(manager);
  else next.set(manager, { set, apiVersion: version, applied: false });
  return next;
}

/** The outcome of an apply: the new object (null: unchanged) and sets, or the conflicts. */
export type ApplyOutcome =
  | { readonly object: Json; readonly changed: boolean; readonly managers: ManagerSets }
  | { readonly conflicts: ManagerConflict[] };

/** Apply `config` as `manager` (upstream Updater.Apply). */
export function mergeConfiguration(
  live: Json,
  config: Json,
  version: string,
  managers: ManagerSets,
  manager: string,
  force: boolean,
  meta: TypeInfo,
  ignored?: FieldSet,
): ApplyOutcome {
  const merged = mergeValues(live, config, meta) ?? null;
  const lastSet = managers.get(manager);
  const next: ManagerSets = new Map(managers);
  next.set(manager, { set: filtered(toFieldSet(config, meta), ignored), apiVersion: version, applied: true });
  const pruned = prune(merged, next, lastSet, meta);
  const res = update(live, pruned, next, manager, force, meta, ignored);
  if ('conflicts' in res) return res;
  return { object: pruned, changed: !equalValues(live, pruned), managers: res.managers };
}

const enf = (set: FieldSet, meta: TypeInfo) => ensureNamedFieldsAreMembers(set, meta);

/**
 * Remove what the applier owned last time and no longer owns, unless another manager owns it
 * (upstream prune, addBackOwnedItems, addBackDanglingItems).
 */
function prune(merged: Json, managers: ManagerSets, lastSet: VersionedSet | undefined, meta: TypeInfo): Json {
  if (!lastSet || lastSet.set.empty()) return merged;
  const last = enf(lastSet.set, meta);
  let pruned = removeItems(merged, last, meta);
  // Add back what anyone (including the applier's new config) owns.
  let managed = FieldSet.EMPTY;
  for (const vs of managers.values()) managed = managed.union(vs.set);
  const mergedSet = enf(toFieldSet(merged, meta), meta);
  pruned = removeItems(
    merged,
    mergedSet.difference(enf(toFieldSet(pruned, meta), meta).union(enf(managed, meta))),
    meta,
  );
  // Add back what the applier did not own last time (unowned or updaters' fields).
  const prunedSet = enf(toFieldSet(pruned, meta), meta);
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(last), meta);
}

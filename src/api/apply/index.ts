/**
 * Server-side apply, the pure core (kubernetes-sigs/structured-merge-diff and k8s.io/apimachinery
 * `pkg/util/managedfields`): field paths and sets with their FieldsV1 wire form, SSA type
 * information from the strategic-merge metadata, the merge engine, the field manager chain
 * that every write goes through, conflict errors and field manager names. No I/O; callers
 * build ApiErrors from the plain data returned here.
 */
export { apply, recordUpdate, MAX_UPDATE_MANAGERS, STRIPPED_FIELDS, type ApplyResult, type UpdateResult, type WriteContext } from './field-manager.js';
export { conflictMessage, conflictOf, conflictStatus, printManager, type Conflict, type ConflictCause, type ConflictStatus } from './conflict.js';
export { managerFromUserAgent, managerOrUserAgent, validateFieldManager, validatePatchManagerOptions, FIELD_MANAGER_MAX_LENGTH, type OptionProblem } from './manager-name.js';
export {
  decodeManagedFields,
  encodeManagedFields,
  isResetManagedFields,
  managedForUpdate,
  managerIdentifier,
  parseManagerIdentifier,
  type Managed,
  type ManagedFieldsEntry,
  type ManagerInfo,
  type VersionedSet,
} from './managed-fields.js';
export { FieldSet } from './field-set.js';
export { fieldsV1Text, fromFieldsV1, toFieldsV1, type FieldsV1 } from './fields-v1.js';
export {
  comparePathElements,
  equalPaths,
  fieldElement,
  indexElement,
  keyElement,
  makePath,
  parsePathElement,
  pathElementToString,
  pathToString,
  serializePathElement,
  valueElement,
  type KeyField,
  type Path,
  type PathElement,
} from './path.js';
export { isAtomicMap, listInfo, listTypeProblems, openApiListTypes, ssaExtensions, type ListInfo, type ListType, type SsaExtensions, type TypeInfo } from './type-info.js';
export { toFieldSet } from './to-field-set.js';
export { mergeValues } from './merge.js';
export { compareObjects, type Comparison } from './compare.js';
export { applyConfig, updateManagers, type ApplyOutcome, type ManagerConflict, type ManagerSets } from './updater.js';
export { allowedConflictsFromLastApplied, buildLastApplied, syncLastApplied, LAST_APPLIED_ANNOTATION } from './last-applied.js';
export { typedProblems } from './list-items.js';
export { zeroObject } from './zero-object.js';

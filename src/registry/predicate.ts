/**
 * Selection predicates from label and field selector strings, per resource definition
 * (upstream SelectionPredicate and the per-kind field label conversion functions).
 */
import { matchesFields, parseFieldSelector, type FieldSelector } from '../api/field-selector.js';
import { matchesLabels, parseLabelSelector, SelectorParseError, type LabelSelector } from '../api/label-selector.js';
import type { ApiObject } from '../api/object.js';
import { badRequest } from '../errors/api-error.js';
import type { ResourceDefinition } from './types.js';

export interface Predicate {
  readonly label: LabelSelector;
  readonly field: FieldSelector;
  /** True when no selector restricts anything. */
  readonly empty: boolean;
  readonly matches: (obj: ApiObject) => boolean;
  /** The name a `metadata.name=<n>` field requirement pins, if any (used for single-object watches). */
  readonly pinnedName?: string;
  /** Every `field=value` requirement, for storage indexes (`spec.nodeName` -> `node-1`). */
  readonly indexValues?: Readonly<Record<string, string>>;
}

/** The field set of an object: metadata.name, metadata.namespace and the kind's own fields. */
export function fieldSetOf(def: ResourceDefinition, obj: ApiObject): Record<string, string> {
  const set: Record<string, string> = {
    'metadata.name': obj.metadata?.name ?? '',
    ...(def.fieldSet ? def.fieldSet(obj) : {}),
  };
  if (def.namespaced) set['metadata.namespace'] = obj.metadata?.namespace ?? '';
  return set;
}

/**
 * Parse `labelSelector` / `fieldSelector` for `def`. Throws ApiError 400 with upstream messages
 * for syntax errors and unsupported fields.
 */
export function buildPredicate(def: ResourceDefinition, labelSelector = '', fieldSelector = ''): Predicate {
  let label: LabelSelector;
  let field: FieldSelector;
  try {
    label = parseLabelSelector(labelSelector);
    field = parseFieldSelector(fieldSelector);
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
  const supported = new Set(['metadata.name', 'metadata.namespace', ...(def.selectableFields ?? [])]);
  field = field.map((r) => {
    const name = def.fieldLabelAliases?.[r.field] ?? r.field;
    if (!supported.has(name)) {
      throw badRequest(
        def.selectableFields
          ? `field label not supported: ${r.field}`
          : `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
      );
    }
    return { ...r, field: name };
  });
  const empty = label.length === 0 && field.length === 0;
  const pinned = field.find((r) => r.field === 'metadata.name' && r.operator === '=');
  const exact = field.filter((r) => r.operator === '=');
  return {
    indexValues: exact.length ? Object.fromEntries(exact.map((r) => [r.field, r.value])) : undefined,
    label,
    field,
    empty,
    pinnedName: pinned?.value,
    matches: empty ? MATCH_ALL : matcher(def, label, field),
  };
}

const MATCH_ALL = (): boolean => true;

/**
 * The match function of non-empty selectors, made apart from buildPredicate so that it holds
 * only what it reads (a watch keeps its predicate for its lifetime).
 */
function matcher(def: ResourceDefinition, label: LabelSelector, field: FieldSelector): (obj: ApiObject) => boolean {
  return (obj) =>
    matchesLabels(label, obj.metadata?.labels) && (field.length === 0 || matchesFields(field, fieldSetOf(def, obj)));
}

/** True when an object still has pending initializers (metadata.initializers.pending). */
export function isUninitialized(obj: ApiObject): boolean {
  const pending = obj.metadata?.initializers?.pending;
  return pending !== undefined && pending !== null && pending.length > 0;
}

/**
 * Hide objects with pending initializers unless `includeUninitialized` (upstream 1.9/1.10
 * list/watch/deletecollection behaviour).
 */
export function withInitializerFilter(pred: Predicate, includeUninitialized: boolean): Predicate {
  if (includeUninitialized) return pred;
  return { ...pred, empty: false, matches: pred.empty ? INITIALIZED : initializedAnd(pred.matches) };
}

const INITIALIZED = (obj: ApiObject): boolean => !isUninitialized(obj);

/** `matches` behind the initializer filter, holding nothing else (a watch keeps it for its life). */
function initializedAnd(matches: (obj: ApiObject) => boolean): (obj: ApiObject) => boolean {
  return (obj) => !isUninitialized(obj) && matches(obj);
}

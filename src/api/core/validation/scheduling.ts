/**
 * Scheduling constraints as upstream 1.10 validates them (pkg/apis/core/validation/
 * validation.go validateAffinity, validateNodeAffinity, ValidateNodeSelector(Term/Requirement),
 * ValidatePreferredSchedulingTerms, validatePodAffinity(Term), validateWeightedPodAffinityTerms,
 * ValidateTolerations; apimachinery ValidateLabelSelector) and 1.33's
 * validateTopologySpreadConstraints.
 */
import type { FieldError } from '../../validation/field-errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../validation/field-errors.js';
import { validateDns1123Label, validateLabelValue } from '../../names.js';
import { fieldsOf, invalidEach, isSet, items, labelName, labels, list, str, type Fields } from './strings.js';

/**
 * ValidateNodeSelectorRequirement; with `labelValues` (1.33's rule, as PersistentVolumes'
 * node affinity applies it) every value must also be a label value.
 */
export function nodeSelectorRequirement(rq: Fields, field: string, labelValues = false): FieldError[] {
  const errs: FieldError[] = [];
  const n = Array.isArray(rq.values) ? rq.values.length : 0;
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (n === 0) errs.push(required(`${field}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0)
        errs.push(forbidden(`${field}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1)
        errs.push(required(`${field}.values`, "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalidValue(`${field}.operator`, str(rq.operator), 'not a valid selector operator'));
  }
  errs.push(...labelName(str(rq.key), `${field}.key`));
  if (labelValues)
    list(rq.values).forEach((v, i) =>
      errs.push(...validateLabelValue(str(v)).map((m) => invalidValue(`${field}.values[${i}]`, str(v), m))),
    );
  return errs;
}

/** The field names a node field selector may name (upstream validNodeFieldSelectorKeys). */
const NODE_FIELD_SELECTOR_KEYS = ['metadata.name'];

/** ValidateNodeFieldSelectorRequirement: In or NotIn with exactly one value, on a known field. */
export function nodeFieldSelectorRequirement(rq: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (list(rq.values).length !== 1)
      errs.push(
        required(
          `${field}.values`,
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
  } else errs.push(invalidValue(`${field}.operator`, str(rq.operator), 'not a valid selector operator'));
  if (!NODE_FIELD_SELECTOR_KEYS.includes(str(rq.key)))
    errs.push(notSupported(`${field}.key`, str(rq.key), NODE_FIELD_SELECTOR_KEYS));
  return errs;
}

/**
 * ValidateNodeSelectorTerm (1.33): each label requirement and each field requirement (e.g. the
 * `metadata.name In [node]` a DaemonSet pins its pods with); since 1.11 a term may hold either
 * list, or none (an empty term matches no node).
 */
function nodeSelectorTerm(term: Fields, field: string): FieldError[] {
  return [
    ...items(term.matchExpressions).flatMap((rq, j) => nodeSelectorRequirement(rq, `${field}.matchExpressions[${j}]`)),
    ...items(term.matchFields).flatMap((rq, j) => nodeFieldSelectorRequirement(rq, `${field}.matchFields[${j}]`)),
  ];
}

const weight = (w: unknown, field: string): FieldError[] =>
  typeof w !== 'number' || w <= 0 || w > 100 ? [invalidValue(field, w ?? 0, 'must be in the range 1-100')] : [];

/** validateNodeAffinity. */
function nodeAffinity(na: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const req = na.requiredDuringSchedulingIgnoredDuringExecution;
  if (isSet(req)) {
    const termsPath = `${field}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
    const terms = items(fieldsOf(req).nodeSelectorTerms);
    if (!terms.length) errs.push(required(termsPath, 'must have at least one node selector term'));
    else terms.forEach((t, i) => errs.push(...nodeSelectorTerm(t, `${termsPath}[${i}]`)));
  }
  items(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    const path = `${field}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errs.push(...weight(t.weight, `${path}.weight`), ...nodeSelectorTerm(fieldsOf(t.preference), `${path}.preference`));
  });
  return errs;
}

/** apimachinery ValidateLabelSelector (matchLabels and matchExpressions). */
function labelSelector(sel: unknown, field: string): FieldError[] {
  if (!sel || typeof sel !== 'object') return [];
  const s = fieldsOf(sel);
  const errs = labels(s.matchLabels, `${field}.matchLabels`);
  items(s.matchExpressions).forEach((sr, i) => {
    const path = `${field}.matchExpressions[${i}]`;
    const n = Array.isArray(sr.values) ? sr.values.length : 0;
    if (sr.operator === 'In' || sr.operator === 'NotIn') {
      if (n === 0) errs.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (sr.operator === 'Exists' || sr.operator === 'DoesNotExist') {
      if (n > 0)
        errs.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      errs.push(invalidValue(`${path}.operator`, str(sr.operator), 'not a valid selector operator'));
    }
    errs.push(...labelName(str(sr.key), `${path}.key`));
  });
  return errs;
}

/** validatePodAffinityTerm (upstream reports the selector under `matchExpressions`, namespaces under `namespace`). */
function podAffinityTerm(term: Fields, field: string): FieldError[] {
  const errs = labelSelector(term.labelSelector, `${field}.matchExpressions`);
  for (const ns of Array.isArray(term.namespaces) ? term.namespaces : [])
    errs.push(...invalidEach(`${field}.namespace`, ns, validateDns1123Label(str(ns))));
  if (!str(term.topologyKey)) errs.push(required(`${field}.topologyKey`, 'can not be empty'));
  return [...errs, ...labelName(str(term.topologyKey), `${field}.topologyKey`)];
}

/** validatePodAffinity / validatePodAntiAffinity. */
function podAffinity(pa: Fields, field: string): FieldError[] {
  const errs: FieldError[] = [];
  items(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) =>
    errs.push(...podAffinityTerm(t, `${field}.requiredDuringSchedulingIgnoredDuringExecution[${i}]`)),
  );
  items(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    const path = `${field}.preferredDuringSchedulingIgnoredDuringExecution[${i}]`;
    errs.push(
      ...weight(t.weight, `${path}.weight`),
      ...podAffinityTerm(fieldsOf(t.podAffinityTerm), `${path}.podAffinityTerm`),
    );
  });
  return errs;
}

/** Upstream validateAffinity. */
export function validateAffinity(affinity: unknown, field: string): FieldError[] {
  if (!affinity || typeof affinity !== 'object') return [];
  const a = fieldsOf(affinity);
  return [
    ...(isSet(a.nodeAffinity) ? nodeAffinity(fieldsOf(a.nodeAffinity), `${field}.nodeAffinity`) : []),
    ...(isSet(a.podAffinity) ? podAffinity(fieldsOf(a.podAffinity), `${field}.podAffinity`) : []),
    ...(isSet(a.podAntiAffinity) ? podAffinity(fieldsOf(a.podAntiAffinity), `${field}.podAntiAffinity`) : []),
  ];
}

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Upstream ValidateTolerations. */
export function validateTolerations(tolerations: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  items(tolerations).forEach((t, i) => {
    const path = `${field}[${i}]`;
    const key = str(t.key);
    const op = str(t.operator);
    if (key) errs.push(...labelName(key, `${path}.key`));
    if (!key && op !== 'Exists')
      errs.push(
        invalidValue(
          `${path}.operator`,
          op,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    if (isSet(t.tolerationSeconds) && t.effect !== 'NoExecute')
      errs.push(
        invalidValue(`${path}.effect`, str(t.effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"),
      );
    if (op === 'Equal' || op === '') {
      const msgs = validateLabelValue(str(t.value));
      if (msgs.length) errs.push(invalidValue(`${path}.operator`, str(t.value), msgs.join(';')));
    } else if (op === 'Exists') {
      if (str(t.value))
        errs.push(invalidValue(`${path}.operator`, t, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(notSupported(`${path}.operator`, op, ['Equal', 'Exists']));
    }
    if (str(t.effect) && !EFFECTS.includes(str(t.effect))) errs.push(notSupported(`${path}.effect`, t.effect, EFFECTS));
  });
  return errs;
}

const NOT_POSITIVE = 'must be greater than zero';
const NODE_POLICIES = ['Honor', 'Ignore'];

/** validateMatchLabelKeysInTopologySpread: label names, a labelSelector, none of its keys. */
function matchLabelKeys(keys: unknown, selector: unknown, field: string): FieldError[] {
  if (!Array.isArray(keys) || !keys.length) return [];
  const errs: FieldError[] = [];
  const sel = fieldsOf(selector);
  const selectorKeys = new Set([
    ...Object.keys(fieldsOf(sel.matchLabels)),
    ...items(sel.matchExpressions).map((e) => str(e.key)),
  ]);
  if (!isSet(selector)) errs.push(forbidden(field, 'must not be specified when labelSelector is not set'));
  keys.forEach((k: unknown, i) => {
    errs.push(...labelName(str(k), `${field}[${i}]`));
    if (selectorKeys.has(str(k)))
      errs.push(invalidValue(`${field}[${i}]`, k, 'exists in both matchLabelKeys and labelSelector'));
  });
  return errs;
}

/** Upstream validateTopologySpreadConstraints (1.33). */
export function validateTopologySpreadConstraints(constraints: unknown, field: string): FieldError[] {
  const list = items(constraints);
  const errs: FieldError[] = [];
  list.forEach((c, i) => {
    const path = `${field}[${i}]`;
    const key = str(c.topologyKey);
    const action = str(c.whenUnsatisfiable);
    const skew = typeof c.maxSkew === 'number' ? c.maxSkew : 0;
    if (skew <= 0) errs.push(invalidValue(`${path}.maxSkew`, skew, NOT_POSITIVE));
    if (!key) errs.push(required(`${path}.topologyKey`, 'can not be empty'));
    if (!['DoNotSchedule', 'ScheduleAnyway'].includes(action))
      errs.push(notSupported(`${path}.whenUnsatisfiable`, action, ['DoNotSchedule', 'ScheduleAnyway']));
    // ValidateSpreadConstraintNotRepeat: reported on the first of two equal pairs.
    if (list.slice(i + 1).some((o) => str(o.topologyKey) === key && str(o.whenUnsatisfiable) === action))
      errs.push(duplicate(`${path}.{topologyKey, whenUnsatisfiable}`, `{${key}, ${action}}`));
    if (isSet(c.minDomains)) {
      const min = c.minDomains;
      if (typeof min === 'number' && min <= 0) errs.push(invalidValue(`${path}.minDomains`, min, NOT_POSITIVE));
      if (action !== 'DoNotSchedule')
        errs.push(
          invalidValue(
            `${path}.minDomains`,
            min,
            `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`,
          ),
        );
    }
    for (const k of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const)
      if (isSet(c[k]) && !NODE_POLICIES.includes(str(c[k])))
        errs.push(notSupported(`${path}.${k}`, c[k], NODE_POLICIES));
    errs.push(
      ...matchLabelKeys(c.matchLabelKeys, c.labelSelector, `${path}.matchLabelKeys`),
      ...labelSelector(c.labelSelector, `${path}.labelSelector`),
    );
  });
  return errs;
}

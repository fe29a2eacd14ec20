/**
 * StorageClass rules of upstream pkg/apis/storage/validation/validation.go (1.33:
 * ValidateStorageClass, ValidateStorageClassUpdate, validateProvisioner, validateParameters,
 * validateReclaimPolicy, validateVolumeBindingMode, validateAllowedTopologies) and core
 * ValidateTopologySelectorTerm. Updates run the create rules too (the strategy's ValidateUpdate).
 */
import { isDeepStrictEqual } from 'node:util';
import {
  duplicate,
  forbidden,
  invalidValue,
  notSupported,
  required,
  type FieldError,
} from '../../api/validation/field-errors.js';
import { labelName } from '../../api/core/validation/strings.js';
import { qualifiedName, tooLongBytes } from './storage-common.js';
import type { StorageClass } from './storageclasses.schema.js';

const MAX_PARAMETERS_SIZE = 256 * 1024;
const MAX_PARAMETERS = 512;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

/** validateProvisioner: required, and (lower-cased) a qualified name. */
export function validateProvisioner(provisioner: string, field: string): FieldError[] {
  if (!provisioner) return [required(field)];
  return qualifiedName(provisioner.toLowerCase(), field);
}

/** validateParameters (allowEmpty): at most 512 entries, no empty key, 256 KiB in all. */
function validateParameters(params: Record<string, string>, field: string): FieldError[] {
  const entries = Object.entries(params);
  if (entries.length > MAX_PARAMETERS) return [tooLongBytes(field, MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalidValue(field, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLongBytes(field, MAX_PARAMETERS_SIZE));
  return errs;
}

type Term = NonNullable<StorageClass['allowedTopologies']>[number];

/** core ValidateTopologySelectorTerm: each requirement's values (required, a set) and key; keys once. */
function validateTopologySelectorTerm(term: Term, field: string): { keys: Map<string, string[]>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const keys = new Map<string, string[]>();
  for (const [i, req] of (term.matchLabelExpressions ?? []).entries()) {
    const at = `${field}.matchLabelExpressions[${i}]`;
    const values = req.values ?? [];
    if (!values.length) errs.push(required(`${at}.values`));
    const seen = new Set<string>();
    for (const [j, v] of values.entries()) {
      if (seen.has(v)) errs.push(duplicate(`${at}.values[${j}]`, v));
      seen.add(v);
    }
    errs.push(...labelName(req.key ?? '', `${at}.key`));
    if (keys.has(req.key ?? '')) errs.push(duplicate(`${at}.key`, req.key ?? ''));
    keys.set(req.key ?? '', [...seen].sort());
  }
  return { keys, errs };
}

/**
 * validateAllowedTopologies: every term valid, no two terms alike. As upstream, the terms are
 * compared with as many empty placeholders as there are terms (its slice starts with that many
 * nil maps), so a term without requirements counts as a duplicate of each.
 */
function validateAllowedTopologies(terms: readonly Term[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen: Map<string, string[]>[] = terms.map(() => new Map());
  for (const [i, term] of terms.entries()) {
    const { keys, errs: termErrs } = validateTopologySelectorTerm(term, `${field}[${i}]`);
    errs.push(...termErrs);
    const flat = (m: Map<string, string[]>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const t of seen)
      if (isDeepStrictEqual(flat(keys), flat(t))) errs.push(duplicate(`${field}[${i}].matchLabelExpressions`, ''));
    seen.push(keys);
  }
  return errs;
}

/** ValidateStorageClass (the metadata rules are common). */
export function validateStorageClass(obj: StorageClass): FieldError[] {
  const errs = [
    ...validateProvisioner(obj.provisioner ?? '', 'provisioner'),
    ...validateParameters(obj.parameters ?? {}, 'parameters'),
  ];
  const policy = obj.reclaimPolicy ?? '';
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  const mode = obj.volumeBindingMode;
  if (mode === undefined || mode === null) errs.push(required('volumeBindingMode'));
  else if (!BINDING_MODES.includes(mode)) errs.push(notSupported('volumeBindingMode', mode, BINDING_MODES));
  errs.push(...validateAllowedTopologies(obj.allowedTopologies ?? [], 'allowedTopologies'));
  return errs;
}

/** ValidateStorageClassUpdate: parameters, provisioner, reclaimPolicy and volumeBindingMode immutable. */
export function validateStorageClassUpdate(obj: StorageClass, old: StorageClass): FieldError[] {
  const errs = validateStorageClass(obj);
  // Absent and empty parameters are alike here (upstream compares a decoded nil and {} as different).
  if (!isDeepStrictEqual(obj.parameters ?? {}, old.parameters ?? {}))
    errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if ((obj.provisioner ?? '') !== (old.provisioner ?? ''))
    errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if ((obj.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? ''))
    errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if ((obj.volumeBindingMode ?? null) !== (old.volumeBindingMode ?? null))
    errs.push(invalidValue('volumeBindingMode', obj.volumeBindingMode ?? null, 'field is immutable'));
  return errs;
}

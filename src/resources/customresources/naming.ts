/**
 * The names a CustomResourceDefinition is accepted with and its NamesAccepted and Established
 * conditions (upstream apiextensions-apiserver pkg/controller/status/naming_controller.go
 * calculateNamesAndConditions, and pkg/controller/establish): a requested name is accepted when
 * it equals the one already accepted or no other definition of the group has accepted it
 * (plural, singular and short names share one set, kind and list kind another); a conflict
 * keeps the old accepted name and sets NamesAccepted False with the conflict's reason. Here the
 * naming and establishing controllers' steps are one: once every name is accepted the
 * definition is Established at once (upstream writes `Installing` first, then
 * `InitialNamesAccepted` a moment later).
 */
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
} from '../customresourcedefinitions/customresourcedefinitions.schema.js';
import { findCrdCondition, type CrdCondition } from '../customresourcedefinitions/conditions.js';

/** The accepted names and the two conditions to set. */
export interface NamingResult {
  readonly acceptedNames: CustomResourceDefinitionNames;
  readonly namesAccepted: Omit<CrdCondition, 'lastTransitionTime'>;
  readonly established: Omit<CrdCondition, 'lastTransitionTime'>;
}

function conflict(
  requested: string | null | undefined,
  accepted: string | null | undefined,
  used: Set<string>,
): string | null {
  const name = requested ?? '';
  if (name === (accepted ?? '') || !used.has(name)) return null;
  return `${JSON.stringify(name)} is already in use`;
}

/**
 * Names and conditions of `crd` given every definition (`all`, `crd` among them or not).
 * Pure: the caller writes the result.
 */
export function calculateNames(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): NamingResult {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.spec.group !== crd.spec.group || other.metadata.name === crd.metadata.name) continue;
    const a = other.status?.acceptedNames;
    if (!a) continue;
    for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
    for (const n of [a.kind, a.listKind]) if (n) kinds.add(n);
  }
  const requested = crd.spec.names;
  const accepted = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  const names: CustomResourceDefinitionNames = {
    ...accepted,
    plural: accepted.plural ?? '',
    kind: accepted.kind ?? '',
  };
  let failure: { reason: string; message: string } | null = null;
  const check = (reason: string, message: string | null, accept: () => void) => {
    if (message) failure = { reason, message };
    else accept();
  };
  check(
    'PluralConflict',
    conflict(requested.plural, accepted.plural, resources),
    () => (names.plural = requested.plural),
  );
  check(
    'SingularConflict',
    conflict(requested.singular, accepted.singular, resources),
    () => (names.singular = requested.singular),
  );
  if (JSON.stringify(requested.shortNames ?? null) !== JSON.stringify(accepted.shortNames ?? null)) {
    const existing = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? [])
      .filter((s) => !existing.has(s))
      .map((s) => conflict(s, '', resources))
      .filter((e): e is string => e !== null);
    // utilerrors.NewAggregate: one message alone, several as `[a, b]`.
    check(
      'ShortNamesConflict',
      errs.length === 0 ? null : errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`,
      () => (names.shortNames = requested.shortNames),
    );
  }
  check('KindConflict', conflict(requested.kind, accepted.kind, kinds), () => (names.kind = requested.kind));
  check(
    'ListKindConflict',
    conflict(requested.listKind, accepted.listKind, kinds),
    () => (names.listKind = requested.listKind),
  );
  names.categories = requested.categories;
  const fail = failure as { reason: string; message: string } | null;
  const namesAccepted = fail
    ? { type: 'NamesAccepted', status: 'False', reason: fail.reason, message: fail.message }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const old = findCrdCondition(crd, 'Established');
  const established =
    old?.status === 'True'
      ? { type: 'Established', status: 'True', reason: old.reason, message: old.message }
      : namesAccepted.status === 'True'
        ? {
            type: 'Established',
            status: 'True',
            reason: 'InitialNamesAccepted',
            message: 'the initial names have been accepted',
          }
        : old
          ? { type: 'Established', status: old.status ?? '', reason: old.reason, message: old.message }
          : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  return { acceptedNames: names, namesAccepted, established };
}

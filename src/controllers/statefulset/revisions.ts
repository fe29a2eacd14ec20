/**
 * A StatefulSet's ControllerRevisions (upstream 1.33 pkg/controller/history/controller_history.go
 * HashControllerRevision, ControllerRevisionName, NewControllerRevision, SortControllerRevisions,
 * EqualRevision, FindEqualRevisions; and pkg/controller/statefulset/stateful_set_utils.go
 * getPatch, newRevision, ApplyRevision, nextRevision). A revision's `data` is the patch that
 * restores the set's pod template: `{"spec":{"template":{...,"$patch":"replace"}}}`; it is
 * named `<set>-<hash>`, labelled with the template's labels and `controller.kubernetes.io/hash`,
 * and owned by the set.
 *
 * Upstream hashes the patch's JSON bytes as Go's encoder writes them (keys sorted, the typed
 * object's empty fields dropped); we hash the canonical JSON of the stored data (keys sorted),
 * so names differ from a real cluster's while staying stable and template-sensitive.
 */
import { deepCopy } from '../../api/object.js';
import type { ControllerRevision } from '../../resources/controllerrevisions/controllerrevisions.schema.js';
import type { StatefulSet } from '../../resources/statefulsets/statefulsets.schema.js';
import { canonicalJson, safeEncodeString } from '../deployment/hash.js';
import { setControllerRef } from './kind.js';

/** Upstream history.ControllerRevisionHashLabel. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** The longest name prefix before `-<hash>` (upstream: 253 less room for the hash). */
const MAX_PREFIX = 223;

/** FNV-1 32-bit (Go's hash/fnv New32, as upstream's hasher) of `bytes`, continuing from `hash`. */
export function fnv1(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h >>> 0;
}

/** The bytes a revision's data is compared and hashed by (canonical JSON). */
export const revisionDataJson = (rev: ControllerRevision): string => canonicalJson(rev.data ?? null);

/**
 * Upstream HashControllerRevision: FNV-1 over the data, then over the decimal `probe`
 * (collisionCount) when given, printed in decimal and safe-encoded.
 */
export function hashControllerRevision(rev: ControllerRevision, probe?: number): string {
  let h = fnv1(Buffer.from(revisionDataJson(rev), 'utf8'));
  if (probe !== undefined) h = fnv1(Buffer.from(String(probe), 'utf8'), h);
  return safeEncodeString(String(h));
}

/** `<prefix>-<hash>`, the prefix cut to 223 characters (upstream ControllerRevisionName). */
export const controllerRevisionName = (prefix: string, hash: string): string =>
  `${prefix.length > MAX_PREFIX ? prefix.slice(0, MAX_PREFIX) : prefix}-${hash}`;

/** The patch restoring `set`'s pod template (upstream getPatch). */
export function templatePatch(set: StatefulSet): Record<string, unknown> {
  return { spec: { template: { ...deepCopy(set.spec?.template ?? {}), $patch: 'replace' } } };
}

/**
 * The revision `revision` of `set` (upstream newRevision with NewControllerRevision): data the
 * template patch, labels the template's plus the hash label, annotations the set's, owned by
 * the set, named for the hash with `collisionCount`.
 */
export function newRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
  const cr: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      namespace: set.metadata.namespace,
      labels: { ...(set.spec?.template?.metadata?.labels ?? {}) },
      ownerReferences: [setControllerRef(set)],
    },
    data: templatePatch(set),
    revision,
  };
  const hash = hashControllerRevision(cr, collisionCount);
  cr.metadata.name = controllerRevisionName(set.metadata.name ?? '', hash);
  cr.metadata.labels = { ...cr.metadata.labels, [REVISION_HASH_LABEL]: hash };
  if (set.metadata.annotations && Object.keys(set.metadata.annotations).length)
    cr.metadata.annotations = { ...set.metadata.annotations };
  return cr;
}

/**
 * `set` with the pod template of `rev` (upstream ApplyRevision: the strategic merge patch whose
 * template `$patch: replace` swaps the whole template). Throws Error when the data holds no
 * template.
 */
export function applyRevision(set: StatefulSet, rev: ControllerRevision): StatefulSet {
  const data = rev.data as { spec?: { template?: Record<string, unknown> } } | undefined;
  const template = data?.spec?.template;
  if (!template || typeof template !== 'object') throw new Error(`revision ${rev.metadata.name} holds no template`);
  const { $patch: _replace, ...rest } = deepCopy(template);
  const clone = deepCopy(set);
  clone.spec = { ...(clone.spec ?? {}), template: rest as NonNullable<StatefulSet['spec']>['template'] };
  return clone;
}

/** Sorted by revision, then creation time, then name (upstream SortControllerRevisions). */
export function sortRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  const time = (r: ControllerRevision) => Date.parse(r.metadata.creationTimestamp ?? '') || 0;
  return [...revisions].sort(
    (a, b) =>
      (a.revision ?? 0) - (b.revision ?? 0) ||
      time(a) - time(b) ||
      ((a.metadata.name ?? '') < (b.metadata.name ?? '')
        ? -1
        : (a.metadata.name ?? '') > (b.metadata.name ?? '')
          ? 1
          : 0),
  );
}

/** Whether two revisions hold the same data (upstream EqualRevision; undefined equals only undefined). */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (!a || !b) return a === b;
  return revisionDataJson(a) === revisionDataJson(b);
}

/** The revisions equal to `needle`, in their order (upstream FindEqualRevisions). */
export const findEqualRevisions = (revisions: readonly ControllerRevision[], needle: ControllerRevision) =>
  revisions.filter((r) => equalRevision(r, needle));

/** 1 more than the last (sorted) revision's number, 1 when there is none (upstream nextRevision). */
export function nextRevision(sorted: readonly ControllerRevision[]): number {
  return sorted.length ? (sorted[sorted.length - 1].revision ?? 0) + 1 : 1;
}

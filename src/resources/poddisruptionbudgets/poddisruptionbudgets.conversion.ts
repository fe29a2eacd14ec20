/**
 * policy/v1beta1 PodDisruptionBudget over policy/v1 storage, as upstream's conversions
 * (pkg/apis/policy/v1beta1/conversion.go, pkg/apis/policy/v1/conversion.go, helper.go): in
 * v1beta1 an empty selector matches no pods while in v1 it matches every pod, so a v1beta1
 * empty selector is stored as v1's match-none selector (an `Exists` requirement on the label
 * `pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match`, which no pod has) and v1's
 * empty selector reads in v1beta1 as the match-all selector (`DoesNotExist` on that label);
 * any other use of the label is stripped.
 *
 * 1.10's v1beta1 has no unhealthyPodEvictionPolicy and no status conditions: a read drops
 * them and an update through it keeps the stored ones ({@link keepV1Fields}).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import type { PodDisruptionBudget } from './poddisruptionbudgets.schema.js';

type Selector = NonNullable<NonNullable<PodDisruptionBudget['spec']>['selector']>;

export const PDB_V1BETA1_LABEL = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

/** A selector's requirements with nil and empty lists and maps alike, as apiequality.Semantic compares them. */
function canonical(sel: Selector | null | undefined): unknown {
  if (!sel) return null;
  const labels = sel.matchLabels ?? {};
  const exprs = (sel.matchExpressions ?? []).map((e) => ({ key: e.key, operator: e.operator, values: e.values ?? [] }));
  return { labels, exprs };
}

const same = (a: Selector | null | undefined, b: Selector) => isDeepStrictEqual(canonical(a), canonical(b));

const MATCH_NONE_V1: Selector = { matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'Exists' }] };
const MATCH_ALL_V1BETA1: Selector = { matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'DoesNotExist' }] };

/** policy.StripPDBV1beta1Label. */
function stripped(sel: Selector): Selector {
  if (!sel.matchExpressions) return sel;
  return { ...sel, matchExpressions: sel.matchExpressions.filter((e) => e.key !== PDB_V1BETA1_LABEL) };
}

/** Convert_v1_PodDisruptionBudget_To_policy: the two special selectors kept, the label stripped otherwise. */
export function v1Selector(sel: Selector | null | undefined): Selector | null | undefined {
  if (!sel || same(sel, MATCH_NONE_V1) || same(sel, {})) return sel;
  return stripped(sel);
}

/** Convert_v1beta1_PodDisruptionBudget_To_policy: the v1beta1 selector as v1 stores it. */
function selectorToV1(sel: Selector | null | undefined): Selector | null | undefined {
  if (!sel) return sel;
  if (same(sel, {})) return structuredClone(MATCH_NONE_V1);
  if (same(sel, MATCH_ALL_V1BETA1)) return {};
  return stripped(sel);
}

/** Convert_policy_PodDisruptionBudget_To_v1beta1: the stored selector as v1beta1 serves it. */
function selectorFromV1(sel: Selector | null | undefined): Selector | null | undefined {
  if (!sel) return sel;
  if (same(sel, MATCH_NONE_V1)) return {};
  if (same(sel, {})) return structuredClone(MATCH_ALL_V1BETA1);
  return sel;
}

/** `obj` with its spec's selector changed by `convert` (and `drop`ped spec fields removed). */
function withSelector(
  obj: ApiObject,
  apiVersion: string,
  convert: (s: Selector | null | undefined) => Selector | null | undefined,
): ApiObject {
  const out: ApiObject = { ...obj, apiVersion };
  const spec = obj.spec as PodDisruptionBudget['spec'];
  if (spec && 'selector' in spec) out.spec = { ...spec, selector: convert(spec.selector) };
  return out;
}

export const v1beta1PdbConversion: VersionConversion = {
  toStorage: (obj) => withSelector(obj, 'policy/v1', selectorToV1),
  fromStorage(obj) {
    const out = withSelector(obj, 'policy/v1beta1', selectorFromV1);
    if (out.spec && typeof out.spec === 'object') {
      const { unhealthyPodEvictionPolicy: _p, ...spec } = out.spec as NonNullable<PodDisruptionBudget['spec']>;
      out.spec = spec;
    }
    if (out.status && typeof out.status === 'object') {
      const { conditions: _c, ...status } = out.status as NonNullable<PodDisruptionBudget['status']>;
      out.status = status;
    }
    return out;
  },
};

/** For an update through policy/v1beta1: the stored unhealthyPodEvictionPolicy, which 1.10 cannot show. */
export function keepV1Fields(pdb: PodDisruptionBudget, old: PodDisruptionBudget): void {
  const policy = old.spec?.unhealthyPodEvictionPolicy;
  if (pdb.spec && typeof policy === 'string' && pdb.spec.unhealthyPodEvictionPolicy === undefined)
    pdb.spec.unhealthyPodEvictionPolicy = policy;
}

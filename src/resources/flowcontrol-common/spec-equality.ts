/**
 * Equality of two flowcontrol specs as upstream compares them (apiequality.Semantic.DeepEqual
 * of the decoded Go structs, in ValidateFlowSchema's and ValidatePriorityLevelConfiguration's
 * mandatory-object checks and in the ensurer's SpecEqualish). On the wire a Go field that is
 * not a pointer reads the same absent or at its zero value, and an empty list the same as an
 * absent one; a pointer field (an optional struct, or `lendablePercent`,
 * `borrowingLimitPercent` and the exempt level's `nominalConcurrencyShares`) tells absent from
 * zero. `canonicalSpec` removes what Go cannot tell apart, so equal canonical JSON means equal specs.
 */
import { isDeepStrictEqual } from 'node:util';

/** Structs held by value (not pointers): an empty one is the same as an absent one. */
const VALUE_STRUCTS = new Set(['priorityLevelConfiguration', 'limitResponse']);
/** Integers held by pointer in the v1 types: 0 differs from absent. */
const POINTER_SCALARS = new Set(['lendablePercent', 'borrowingLimitPercent', 'nominalConcurrencyShares']);

/** `value` (at field `key`) with what Go does not distinguish removed; undefined when it reads as absent. */
function canonical(value: unknown, key: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, '') ?? null);
    return items.length ? items : undefined;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = canonical(v, k);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length || !VALUE_STRUCTS.has(key) ? out : undefined;
  }
  if (POINTER_SCALARS.has(key)) return value;
  return value === false || value === '' || value === 0 ? undefined : value;
}

/** A spec (FlowSchemaSpec or PriorityLevelConfigurationSpec) without the distinctions Go's types cannot hold. */
export function canonicalSpec(spec: unknown): unknown {
  return canonical(spec, 'spec') ?? {};
}

/** Whether two specs are equal as upstream's Semantic.DeepEqual finds them. */
export function specsEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(canonicalSpec(a), canonicalSpec(b));
}

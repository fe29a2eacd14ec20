/**
 * The ValidatingAdmissionPolicy strategy (k8s.io/kubernetes
 * pkg/registry/admissionregistration/validatingadmissionpolicy/strategy.go and
 * pkg/apis/admissionregistration/v1 defaults.go, 1.33): defaults (failurePolicy Fail; the
 * match constraints' matchPolicy Equivalent, empty selectors, a rule's scope `*`), create clears
 * the status and sets generation 1, an update keeps the stored status and bumps the generation
 * when the spec changed (compared as apiequality.Semantic compares the decoded specs: an absent
 * list, map or string is the same as an empty one), and validation.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Strategy } from '../../registry/types.js';
import { keepStatusOnUpdate } from '../define.js';
import { defaultMatchResources } from '../webhook-common/match-resources.validation.js';
import type { PolicySpec, ValidatingAdmissionPolicy } from './validatingadmissionpolicies.schema.js';
import { validatePolicy, validatePolicyUpdate } from './validatingadmissionpolicies.validation.js';

/** SetDefaults_ValidatingAdmissionPolicySpec and its parts. */
export function defaultPolicy(policy: ValidatingAdmissionPolicy): void {
  const spec = policy.spec;
  if (!spec) return;
  spec.failurePolicy ??= 'Fail';
  defaultMatchResources(spec.matchConstraints);
}

/**
 * `value` without what a decoded Go struct cannot hold apart from absence: nulls, empty lists,
 * empty strings and empty label maps (pointers to empty structs stay).
 */
export function semanticForm(value: unknown, key = ''): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.length ? value.map((v) => semanticForm(v) ?? null) : undefined;
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = semanticForm(v, k);
    if (c !== undefined) out[k] = c;
  }
  return key === 'matchLabels' && !Object.keys(out).length ? undefined : out;
}

const sameSpec = (a: PolicySpec | null | undefined, b: PolicySpec | null | undefined) =>
  isDeepStrictEqual(semanticForm(a ?? {}), semanticForm(b ?? {}));

export const policyStrategy: Strategy<ValidatingAdmissionPolicy> = {
  defaults: defaultPolicy,
  prepareForCreate(policy) {
    policy.status = {};
    policy.metadata.generation = 1;
  },
  prepareForUpdate(policy, old) {
    keepStatusOnUpdate.prepareForUpdate!(policy, old);
    const generation = old.metadata.generation ?? 0;
    policy.metadata.generation = sameSpec(policy.spec, old.spec) ? generation : generation + 1;
  },
  validate: validatePolicy,
  validateUpdate: validatePolicyUpdate,
};

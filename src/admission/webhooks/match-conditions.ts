/**
 * A webhook's matchConditions (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/matchconditions/matcher.go): CEL expressions over `object`,
 * `oldObject`, `request` and `authorizer` (no params, no namespaceObject), compiled once per
 * webhook in the stored-expressions environment and evaluated in order with a budget of
 * 2,500,000 (RuntimeCELCostBudgetMatchConditions):
 * - a condition that is false skips the webhook, even after conditions that failed;
 * - otherwise, if any failed to evaluate: failurePolicy Fail refuses the request with the
 *   errors (403), Ignore skips the webhook;
 * - a spent budget is an error of the whole evaluation, decided the same way.
 */
import type { ApiObject } from '../../api/object.js';
import {
  AdmissionEvaluator,
  compileAdmissionExpression,
  type CelAuthorizer,
  type CompiledAdmissionExpression,
} from '../../api/cel/admission/index.js';
import type { WriterInfo } from '../../registry/hooks.js';
import type { Webhook } from '../../resources/webhook-common/webhook.schema.js';

/** upstream celconfig.RuntimeCELCostBudgetMatchConditions. */
export const MATCH_CONDITIONS_BUDGET = 2_500_000;

/** What the expressions see (upstream's admission CEL variables, as JSON). */
export interface MatchConditionInput {
  readonly object: ApiObject | null;
  readonly oldObject: ApiObject | null;
  /** The AdmissionRequest as the webhook would receive it (without objects). */
  readonly request: Readonly<Record<string, unknown>>;
  /** Who makes the request (for `authorizer`); absent for the server's own writes. */
  readonly user?: WriterInfo;
  /** The request's resource, for `authorizer.requestResource`. */
  readonly requestResource: { group: string; resource: string; subresource: string; namespace: string; name: string };
}

/** The outcome: whether to call the webhook, or the error that refuses the request. */
export type MatchConditionResult = { readonly matches: boolean } | { readonly error: string };

/** Evaluates a webhook's matchConditions (upstream matchconditions.Matcher). */
export interface MatchConditionEvaluator {
  /** Whether the evaluator evaluates conditions at all (false: every condition counts as true). */
  readonly evaluates: boolean;
  evaluate(webhook: Webhook, input: MatchConditionInput): MatchConditionResult;
}

/** An evaluator that evaluates nothing: every condition holds (tests of matching alone). */
export const IGNORE_MATCH_CONDITIONS: MatchConditionEvaluator = {
  evaluates: false,
  evaluate: () => ({ matches: true }),
};

/** A user with no name: what the authorizer sees for the server's own writes. */
const NOBODY = { name: '', groups: [] as string[] };

/**
 * The CEL evaluator. `authorizer` gives the server's authorizer when one is built (the
 * authorizer is built after admission is installed); without one, `authorizer` checks have no
 * opinion.
 */
export function celMatchConditions(authorizer: () => CelAuthorizer | undefined): MatchConditionEvaluator {
  // Configurations are replaced, never changed in place: compile once per webhook object.
  const compiled = new WeakMap<Webhook, { name: string; c: CompiledAdmissionExpression }[]>();
  const compile = (w: Webhook) => {
    let list = compiled.get(w);
    if (!list) {
      list = (w.matchConditions ?? []).map((m) => ({
        name: m.name,
        c: compileAdmissionExpression(m.expression, ['bool'], { hasParams: false, hasAuthorizer: true, env: 'stored' }),
      }));
      compiled.set(w, list);
    }
    return list;
  };
  const noOpinion: CelAuthorizer = { authorize: () => ({ decision: 'no-opinion', reason: '' }) };
  return {
    evaluates: true,
    evaluate(webhook, input) {
      const evaluator = new AdmissionEvaluator(
        {
          object: input.object,
          oldObject: input.oldObject,
          request: input.request,
          authorizer: {
            authorizer: authorizer() ?? noOpinion,
            user: input.user ?? NOBODY,
            requestResource: input.requestResource,
          },
        },
        [],
        MATCH_CONDITIONS_BUDGET,
      );
      const fail = webhook.failurePolicy !== 'Ignore';
      const errors: string[] = [];
      for (const { c } of compile(webhook)) {
        const r = evaluator.evaluate(c);
        if ('error' in r) {
          if (r.outOfBudget) return fail ? { error: r.error } : { matches: false };
          errors.push(r.error);
        } else if (r.value === false) return { matches: false };
      }
      if (!errors.length) return { matches: true };
      if (!fail) return { matches: false };
      return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
    },
  };
}

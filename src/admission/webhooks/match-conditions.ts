/**
 * A webhook's matchConditions (upstream k8s.io/apiserver
 * pkg/admission/plugin/webhook/matchconditions): CEL expressions over `object`, `oldObject`,
 * `request` and `authorizer`, all of which must be true for the webhook to be called; an
 * expression that fails to evaluate refuses the request (403) unless a false one decides first.
 *
 * The evaluation sits behind {@link MatchConditionEvaluator} so the CEL engine plugs in here.
 * Not done yet: the engine in src/api/cel serves CustomResourceDefinition rules (typed by a
 * structural schema) and has no admission environment (`request`, `authorizer`, dyn objects),
 * so {@link IGNORE_MATCH_CONDITIONS} is used, which evaluates none: a webhook with
 * matchConditions is called as if it had none.
 */
import type { ApiObject } from '../../api/object.js';
import type { Webhook } from '../../resources/webhook-common/webhook.schema.js';

/** What the expressions see (upstream's admission CEL variables, as JSON). */
export interface MatchConditionInput {
  readonly object: ApiObject | null;
  readonly oldObject: ApiObject | null;
  /** The AdmissionRequest as the webhook would receive it (without objects). */
  readonly request: Readonly<Record<string, unknown>>;
}

/** The outcome: whether to call the webhook, or the error that refuses the request. */
export type MatchConditionResult = { readonly matches: boolean } | { readonly error: string };

/** Evaluates a webhook's matchConditions (upstream matchconditions.Matcher). */
export interface MatchConditionEvaluator {
  /** Whether the evaluator evaluates conditions at all (false: every condition counts as true). */
  readonly evaluates: boolean;
  evaluate(webhook: Webhook, input: MatchConditionInput): MatchConditionResult;
}

/** The evaluator used until the CEL engine has an admission environment: every condition holds. */
export const IGNORE_MATCH_CONDITIONS: MatchConditionEvaluator = {
  evaluates: false,
  evaluate: () => ({ matches: true }),
};

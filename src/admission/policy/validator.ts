/**
 * One evaluation of a compiled policy for a request, one binding and one param (upstream
 * k8s.io/apiserver pkg/admission/plugin/policy/validating/validator.go Validate and
 * webhook/matchconditions/matcher.go Match):
 * 1. matchConditions (budget 2,500,000; no `namespaceObject`): a false one skips the policy;
 *    errors (aggregated) decide by failurePolicy (Fail: an error decision; Ignore: skip);
 * 2. validations (budget 10,000,000): an error decides by failurePolicy (Fail: deny, Ignore:
 *    admit); false denies with the messageExpression's value (trimmed, at most 5 KiB, one line),
 *    else `message`, else `failed expression: <expression>`, and the validation's reason
 *    (unset: Invalid); running out of budget ends the evaluation with one error decision;
 * 3. messageExpressions (what is left of the validations' budget; no `authorizer`): running out
 *    of budget turns every decision that had no error into `failed messageExpression: ...`;
 * 4. auditAnnotations (a new budget of 10,000,000): a non-empty string is published, '' and
 *    null are not, an error decides by failurePolicy, another type is an error.
 */
import {
  AdmissionEvaluator,
  type AdmissionActivationInput,
  type AdmissionEvaluation,
} from '../../api/cel/admission/index.js';
import type { CompiledPolicy } from './compile.js';
import type { PolicyAuditAnnotation, PolicyDecision, ValidateResult } from './types.js';

/** upstream celconfig.RuntimeCELCostBudgetMatchConditions. */
const MATCH_CONDITIONS_BUDGET = 2_500_000;
/** upstream celconfig.RuntimeCELCostBudget. */
const RUNTIME_BUDGET = 10_000_000;
/** upstream celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** What a policy's expressions see for one evaluation. */
export interface ValidateInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly params: unknown;
  /** The request's namespace (upstream CreateNamespaceObject), null for a cluster-scoped object. */
  readonly namespaceObject: unknown;
  /** `request` with the matched resource and kind (validations, messages, audit annotations). */
  readonly request: Readonly<Record<string, unknown>>;
  /** `request` as matchConditions see it (the requested resource, the matched kind). */
  readonly matchRequest: Readonly<Record<string, unknown>>;
  readonly authorizer?: AdmissionActivationInput['authorizer'];
}

const errorDecision = (failurePolicy: string, message: string): PolicyDecision => ({
  action: failurePolicy === 'Ignore' ? 'admit' : 'deny',
  evaluation: 'error',
  message,
  reason: '',
});

/** utilerrors.NewAggregate(...).Error(): one message, or `[a, b]` without repeats. */
function aggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** The matchConditions' verdict: true to go on, false to skip, or an error decision. */
function matchConditions(policy: CompiledPolicy, input: ValidateInput): boolean | PolicyDecision {
  if (!policy.matchConditions.length) return true;
  const ev = new AdmissionEvaluator(
    { ...input, namespaceObject: null, request: input.matchRequest },
    policy.variables,
    MATCH_CONDITIONS_BUDGET,
  );
  const errors: string[] = [];
  for (const c of policy.matchConditions) {
    const r = ev.evaluate(c.compiled);
    if ('error' in r) {
      if (r.outOfBudget) return policy.failurePolicy === 'Ignore' ? false : errorDecision('Fail', r.error);
      errors.push(r.error);
    } else if (r.value === false) return false;
  }
  if (!errors.length) return true;
  return policy.failurePolicy === 'Ignore' ? false : errorDecision('Fail', aggregate(errors));
}

/** The message of a failed validation from its messageExpression's result, '' when unusable. */
function evaluatedMessage(r: AdmissionEvaluation | undefined): string {
  if (!r || !('value' in r) || typeof r.value !== 'string') return '';
  const message = r.value.trim();
  if (Buffer.byteLength(message) > MAX_MESSAGE_BYTES || message.includes('\n')) return '';
  return message;
}

/** The validations' decisions (steps 2 and 3), or one error decision when out of budget. */
function validations(policy: CompiledPolicy, input: ValidateInput): PolicyDecision[] {
  const fp = policy.failurePolicy;
  const ev = new AdmissionEvaluator(input, policy.variables, RUNTIME_BUDGET);
  const results: AdmissionEvaluation[] = [];
  for (const v of policy.validations) {
    const r = ev.evaluate(v.compiled);
    if ('error' in r && r.outOfBudget) return [errorDecision(fp, r.error)];
    results.push(r);
  }
  const messages = new AdmissionEvaluator(
    { ...input, authorizer: undefined },
    policy.variables,
    Math.max(ev.remainingBudget, 0),
  );
  let messageError: string | undefined;
  const messageResults: (AdmissionEvaluation | undefined)[] = [];
  for (const v of policy.validations) {
    const r = v.messageExpression ? messages.evaluate(v.messageExpression) : undefined;
    if (r && 'error' in r && r.outOfBudget) {
      messageError = r.error;
      break;
    }
    messageResults.push(r);
  }
  return policy.validations.map((v, i): PolicyDecision => {
    const r = results[i]!;
    if ('error' in r) return errorDecision(fp, r.error);
    if (messageError !== undefined) return errorDecision(fp, `failed messageExpression: ${messageError}`);
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '', reason: '' };
    const message =
      evaluatedMessage(messageError === undefined ? messageResults[i] : undefined) ||
      v.message.trim() ||
      `failed expression: ${v.expression.trim()}`;
    return { action: 'deny', evaluation: 'deny', message, reason: v.reason ?? 'Invalid' };
  });
}

/** cel-go's name of a result's type, for the unsupported-type message. */
function celTypeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (Array.isArray(v)) return 'list';
  if (v !== null && typeof v === 'object') return 'map';
  return typeof v;
}

/** The audit annotations' results (step 4), or an error decision when out of budget. */
function auditAnnotations(policy: CompiledPolicy, input: ValidateInput): PolicyAuditAnnotation[] | PolicyDecision {
  const fp = policy.failurePolicy;
  const ev = new AdmissionEvaluator({ ...input, authorizer: undefined }, policy.variables, RUNTIME_BUDGET);
  const out: PolicyAuditAnnotation[] = [];
  for (const a of policy.auditAnnotations) {
    const r = ev.evaluate(a.compiled);
    const result = { key: a.key, value: '', error: '' };
    if ('error' in r) {
      if (r.outOfBudget) return errorDecision(fp, r.error);
      out.push({ ...result, action: fp === 'Ignore' ? 'exclude' : 'error', error: r.error });
    } else if (typeof r.value === 'string') {
      const value = r.value.trim();
      out.push(value ? { ...result, action: 'publish', value } : { ...result, action: 'exclude' });
    } else if (r.value === null) out.push({ ...result, action: 'exclude' });
    else
      out.push({
        ...result,
        action: 'error',
        error: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.`,
      });
  }
  return out;
}

/** Evaluate `policy` for one binding and param (upstream validator.Validate). */
export function validatePolicy(policy: CompiledPolicy, input: ValidateInput): ValidateResult {
  const matched = matchConditions(policy, input);
  if (matched === false) return { decisions: [], auditAnnotations: [] };
  if (matched !== true) return { decisions: [matched], auditAnnotations: [] };
  const decisions = validations(policy, input);
  const annotations = auditAnnotations(policy, input);
  if (!Array.isArray(annotations)) return { decisions: [annotations], auditAnnotations: [] };
  return { decisions, auditAnnotations: annotations };
}

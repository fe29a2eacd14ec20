/**
 * A policy's expressions compiled once per resourceVersion (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/validating/plugin.go compilePolicy): the variables first (each
 * sees those before it), then the matchConditions (bool), validations (bool), their
 * messageExpressions (string; without `authorizer`) and the auditAnnotations' valueExpressions
 * (string or null), all in the stored-expressions environment, with `params` when the policy
 * has a paramKind. Compile errors are kept with the expression and reported when it is
 * evaluated (`compilation error: ...`), as upstream does.
 */
import {
  compileAdmissionExpression,
  compileVariables,
  type AdmissionCelOptions,
  type CompiledAdmissionExpression,
  type CompiledVariable,
} from '../../api/cel/admission/index.js';
import type { PolicySpec } from './types.js';

/** One validation with its compiled expression and messageExpression. */
export interface CompiledValidation {
  readonly expression: string;
  readonly compiled: CompiledAdmissionExpression;
  readonly message: string;
  /** The StatusReason to answer with; unset answers Invalid. */
  readonly reason?: string;
  readonly messageExpression?: CompiledAdmissionExpression;
}

/** One audit annotation with its compiled valueExpression. */
export interface CompiledAuditAnnotation {
  readonly key: string;
  readonly valueExpression: string;
  readonly compiled: CompiledAdmissionExpression;
}

/** Everything a policy evaluates (upstream's Validator). */
export interface CompiledPolicy {
  /** Fail (default) or Ignore. */
  readonly failurePolicy: 'Fail' | 'Ignore' | string;
  readonly variables: readonly CompiledVariable[];
  readonly matchConditions: readonly { readonly name: string; readonly compiled: CompiledAdmissionExpression }[];
  readonly validations: readonly CompiledValidation[];
  readonly auditAnnotations: readonly CompiledAuditAnnotation[];
}

/** Compile the expressions of a policy's `spec`. Throws nothing. */
export function compilePolicy(spec: PolicySpec): CompiledPolicy {
  const hasParams = !!spec.paramKind;
  const base: AdmissionCelOptions = { hasParams, hasAuthorizer: true, env: 'stored' };
  const variables = compileVariables(
    (spec.variables ?? []).map((v) => ({ name: v.name, expression: v.expression })),
    base,
  );
  const opts: AdmissionCelOptions = { ...base, variables };
  const messageOpts: AdmissionCelOptions = { ...opts, hasAuthorizer: false };
  return {
    failurePolicy: spec.failurePolicy ?? 'Fail',
    variables,
    matchConditions: (spec.matchConditions ?? []).map((c) => ({
      name: c.name,
      compiled: compileAdmissionExpression(c.expression, ['bool'], opts),
    })),
    validations: (spec.validations ?? []).map((v) => ({
      expression: v.expression,
      compiled: compileAdmissionExpression(v.expression, ['bool'], opts),
      message: v.message ?? '',
      reason: v.reason ?? undefined,
      messageExpression: v.messageExpression
        ? compileAdmissionExpression(v.messageExpression, ['string'], messageOpts)
        : undefined,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({
      key: a.key,
      valueExpression: a.valueExpression,
      compiled: compileAdmissionExpression(a.valueExpression, ['string', 'null'], opts),
    })),
  };
}

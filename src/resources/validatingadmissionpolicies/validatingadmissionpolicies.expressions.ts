/**
 * Compile checks of a ValidatingAdmissionPolicy's CEL expressions on write (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation, 1.33: validateMatchConditionsExpression,
 * validateVariable, validateValidationExpression, validateMessageExpression and the compile of
 * validateAuditAnnotation, with convertCELErrorToValidationError). An expression that the
 * stored policy already had compiles in the stored environment, a new one in the stricter
 * environment of new expressions. Errors are `Invalid value: "<expression>": <detail>` (for a
 * match condition or an audit annotation the trimmed expression is what is compiled) or
 * `Internal error: <detail>`.
 */
import {
  compileAdmissionExpression,
  type AdmissionCelOptions,
  type AdmissionReturn,
  type CompiledVariable,
} from '../../api/cel/admission/index.js';
import { internal, invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import type { PolicySpec } from './validatingadmissionpolicies.schema.js';

/** The expressions of the stored policy, by where they appear (upstream preexistingExpressions). */
export interface PreexistingExpressions {
  readonly matchConditions: ReadonlySet<string>;
  readonly validations: ReadonlySet<string>;
  readonly messageExpressions: ReadonlySet<string>;
  readonly auditAnnotationValues: ReadonlySet<string>;
}

/** None: every expression is new (a create). */
export const NO_PREEXISTING: PreexistingExpressions = {
  matchConditions: new Set(),
  validations: new Set(),
  messageExpressions: new Set(),
  auditAnnotationValues: new Set(),
};

/** findValidatingPolicyPreexistingExpressions of the stored spec. */
export function preexistingOf(spec: PolicySpec | null | undefined): PreexistingExpressions {
  return {
    matchConditions: new Set((spec?.matchConditions ?? []).map((c) => c.expression)),
    validations: new Set((spec?.validations ?? []).map((v) => v.expression)),
    messageExpressions: new Set(
      (spec?.validations ?? []).flatMap((v) => (v.messageExpression ? [v.messageExpression] : [])),
    ),
    auditAnnotationValues: new Set((spec?.auditAnnotations ?? []).map((a) => a.valueExpression)),
  };
}

const envFor = (set: ReadonlySet<string>, expression: string) => (set.has(expression) ? 'stored' : 'new');

/**
 * Compile `expression` (shown as `shown` in an Invalid error) at `field`; [] when it compiles.
 * convertCELErrorToValidationError.
 */
function check(
  field: string,
  expression: string,
  shown: string,
  returns: readonly AdmissionReturn[],
  opts: AdmissionCelOptions,
): FieldError[] {
  return errorsOf(field, shown, compileAdmissionExpression(expression, returns, opts).error);
}

function errorsOf(field: string, shown: string, error: { type: string; detail: string } | undefined): FieldError[] {
  if (!error) return [];
  return [error.type === 'Invalid' ? invalidValue(field, shown, error.detail) : internal(field, error.detail)];
}

/** The compile checks of one policy's expressions, called in upstream's order (variables first). */
export interface PolicyCompiler {
  /** A match condition's trimmed expression (must be bool; params with a paramKind; no variables). */
  matchCondition(field: string, trimmed: string): FieldError[];
  /** The next variable, compiled and kept for the expressions after it. */
  variable(field: string, name: string, expression: string): FieldError[];
  /** A validation's expression (bool). */
  validation(field: string, expression: string): FieldError[];
  /** A validation's messageExpression (string; no authorizer). */
  message(field: string, expression: string): FieldError[];
  /** An audit annotation's valueExpression: `trimmed` compiled (string or null), `raw` shown. */
  auditValue(field: string, trimmed: string, raw: string): FieldError[];
}

/**
 * The compiler of a policy whose spec has (`hasParams`) a paramKind or not, the stored
 * policy's expressions being `old` (NO_PREEXISTING on create).
 */
export function policyCompiler(hasParams: boolean, old: PreexistingExpressions): PolicyCompiler {
  const variables: CompiledVariable[] = [];
  return {
    matchCondition: (field, trimmed) =>
      check(field, trimmed, trimmed, ['bool'], {
        hasParams,
        hasAuthorizer: true,
        env: envFor(old.matchConditions, trimmed),
      }),
    variable(field, name, expression) {
      // Upstream picks a variable's environment by the stored policy's validation expressions.
      const env = envFor(old.validations, expression);
      const compiled = compileAdmissionExpression(expression, ['any'], {
        hasParams,
        hasAuthorizer: true,
        variables,
        env,
      });
      variables.push({ name, compiled });
      return errorsOf(field, expression, compiled.error);
    },
    validation: (field, expression) =>
      check(field, expression, expression, ['bool'], {
        hasParams,
        hasAuthorizer: true,
        variables,
        env: envFor(old.validations, expression),
      }),
    message: (field, expression) =>
      check(field, expression, expression, ['string'], {
        hasParams,
        hasAuthorizer: false,
        variables,
        env: envFor(old.messageExpressions, expression),
      }),
    auditValue: (field, trimmed, raw) =>
      check(field, trimmed, raw, ['string', 'null'], {
        hasParams,
        hasAuthorizer: true,
        variables,
        env: envFor(old.auditAnnotationValues, raw),
      }),
  };
}

/** Longest valueExpression of an audit annotation, in bytes (upstream maxAuditAnnotationValueExpressionLength). */
export const MAX_AUDIT_VALUE_EXPRESSION = 5 * 1024;

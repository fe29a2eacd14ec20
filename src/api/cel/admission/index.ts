/**
 * CEL for admission (webhook matchConditions, ValidatingAdmissionPolicy): compile with
 * {@link compileAdmissionExpression} / {@link compileVariables} once per configuration, then for
 * each request make an {@link AdmissionEvaluator} (the request's values, the policy's
 * variables, one runtime budget) and `evaluate` each expression. Upstream:
 * k8s.io/apiserver pkg/admission/plugin/cel.
 */
export {
  compileAdmissionExpression,
  compileVariables,
  admissionVariables,
  type AdmissionCelOptions,
  type AdmissionReturn,
  type CompiledAdmissionExpression,
  type CompiledVariable,
} from './compile.js';
export {
  AdmissionEvaluator,
  ADMISSION_PER_CALL_LIMIT,
  ADMISSION_RUNTIME_BUDGET,
  OUT_OF_BUDGET,
  celToJson,
  jsonToCel,
  type AdmissionActivationInput,
  type AdmissionEvaluation,
} from './evaluate.js';
export type { CelAuthorizer, CelAuthzAttributes, CelAuthzUser } from '../lib-authz.js';

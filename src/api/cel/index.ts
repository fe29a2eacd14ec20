/**
 * CustomResourceDefinition validation rules (`x-kubernetes-validations`, CEL) as upstream 1.33
 * evaluates them; what is supported is listed in docs/cel.md.
 *
 * - At CRD write: `validateCrdValidationRules(openAPIV3Schema, 'spec.versions[i].schema.openAPIV3Schema',
 *   { preexisting })` gives the FieldErrors (compile errors, rule fields, cost limits) for a
 *   structural schema.
 * - On create/update of a custom object: `new CelValidator(structural)` once per CRD version, then
 *   `validator.validate(obj, { oldObj })` ({ errors, warnings, remainingBudget }) or
 *   `validator.nodeValidator(opts, warnings)` as a NodeValidator for `validateCustomObject`.
 * - `compileRules(structural)`: one node's rules compiled (tests, tools).
 */
export {
  CelValidator,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  type CelValidateOptions,
  type CelValidateResult,
} from './validator.js';
export {
  validateCrdValidationRules,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
  type CrdRulesOptions,
} from './crd-rules.js';
export { compileRules, type CompiledRule, type CompileError, type CompileOptions } from './compile.js';
export type { EnvKind } from './env.js';

/**
 * Compilation of admission expressions (webhook matchConditions, ValidatingAdmissionPolicy
 * validations, messageExpressions, auditAnnotations, matchConditions and variables) as upstream
 * compiles them (k8s.io/apiserver pkg/admission/plugin/cel/compile.go CompileCELExpression,
 * composition.go): in an environment declaring `object`, `oldObject` (dyn),
 * `request` (kubernetes.AdmissionRequest), `namespaceObject` (kubernetes.Namespace),
 * `params` (dyn, with params), `authorizer` and `authorizer.requestResource` (with an
 * authorizer) and `variables` (an object whose fields are the variables compiled before);
 * the result must be exactly one of the return types (`any` accepts everything).
 *
 * Errors (upstream apiservercel.Error): `compilation failed: ERROR: <input>:1:1: ...` (Invalid),
 * `must evaluate to bool but got string` or `must evaluate to one of [string null_type] but got
 * int` (Invalid), `program instantiation failed: ...` (Internal).
 */
import { type Checked } from '../checker.js';
import { compileExpression, type CompileError } from '../compile.js';
import { celFunctions, type EnvKind } from '../env.js';
import { FunctionRegistry } from '../functions.js';
import { AUTHORIZER_T, AUTHZ, RESOURCE_CHECK_T } from '../lib-authz.js';
import { instantiationError } from '../literal-validators.js';
import { type CelType, DYN, formatType } from '../types.js';
import { NAMESPACE_TYPE, REQUEST_TYPE } from './types.js';

/** Which optional variables an expression may use (upstream OptionalVariableDeclarations). */
export interface AdmissionCelOptions {
  /** `params` is declared (the policy has a paramKind). */
  readonly hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` are declared. */
  readonly hasAuthorizer: boolean;
  /** Variables compiled before this expression (a policy's spec.variables), seen as `variables.<name>`; none: `variables` is undeclared. */
  readonly variables?: readonly CompiledVariable[];
  /** 'new' for expressions being written (the compatibility version), 'stored' (default) for stored ones. */
  readonly env?: EnvKind;
}

/** A type an expression must evaluate to (upstream ExpressionAccessor.ReturnTypes). */
export type AdmissionReturn = 'bool' | 'string' | 'null' | 'any';

/** One compiled expression (upstream CompilationResult). */
export interface CompiledAdmissionExpression {
  readonly expression: string;
  readonly error?: CompileError;
  /** The output type as cel-go prints it (`bool`, `dyn`, `map(string, int)`), when compiled. */
  readonly outputType?: string;
  /** @internal the checked program, its output type and its functions. */
  readonly program?: Checked;
  readonly celType?: CelType;
  readonly functions: FunctionRegistry;
}

/** A named variable compiled (upstream CompositedCompiler.CompileAndStoreVariable). */
export interface CompiledVariable {
  readonly name: string;
  readonly compiled: CompiledAdmissionExpression;
}

const RETURN_NAMES: Record<AdmissionReturn, string> = { bool: 'bool', string: 'string', null: 'null_type', any: 'any' };

const registries = new Map<EnvKind, FunctionRegistry>();
/** The admission function environment: the base libraries and the authorizer library. */
function admissionFunctions(kind: EnvKind): FunctionRegistry {
  let r = registries.get(kind);
  if (!r) registries.set(kind, (r = celFunctions(kind).extend(AUTHZ)));
  return r;
}

/** The variables an expression compiled with `opts` may reference, with their types. */
export function admissionVariables(opts: AdmissionCelOptions): Map<string, CelType> {
  const vars = new Map<string, CelType>([
    ['object', DYN],
    ['oldObject', DYN],
    ['namespaceObject', NAMESPACE_TYPE],
    ['request', REQUEST_TYPE],
  ]);
  if (opts.hasParams) vars.set('params', DYN);
  if (opts.hasAuthorizer) {
    vars.set('authorizer', AUTHORIZER_T);
    vars.set('authorizer.requestResource', RESOURCE_CHECK_T);
  }
  // `variables` exists only for a policy with variables (upstream's composited compiler).
  if (opts.variables?.length) {
    const fields = new Map<string, CelType>();
    for (const v of opts.variables) fields.set(v.name, v.compiled.celType ?? DYN);
    vars.set('variables', { kind: 'object', name: 'kubernetes.variables', fields });
  }
  return vars;
}

/** Compile `expression`, which must evaluate to one of `returns`. Throws nothing. */
export function compileAdmissionExpression(
  expression: string,
  returns: readonly AdmissionReturn[],
  opts: AdmissionCelOptions,
): CompiledAdmissionExpression {
  const functions = admissionFunctions(opts.env ?? 'stored');
  const failed = (error: CompileError): CompiledAdmissionExpression => ({ expression, error, functions });
  const checked = compileExpression(expression, admissionVariables(opts), functions);
  if ('errors' in checked) return failed({ type: 'Invalid', detail: `compilation failed: ${checked.errors}` });
  // cel-go's Type.String() names null `null_type` (its error messages say `null`).
  const out = formatType(checked.outputType).replace(/^null$/, 'null_type');
  if (!returns.includes('any') && !returns.some((r) => RETURN_NAMES[r] === out)) {
    const names = returns.map((r) => RETURN_NAMES[r]);
    const detail =
      names.length === 1
        ? `must evaluate to ${names[0]} but got ${out}`
        : `must evaluate to one of [${names.join(' ')}] but got ${out}`;
    return failed({ type: 'Invalid', detail });
  }
  const inst = instantiationError(checked.ast);
  if (inst) return failed({ type: 'Internal', detail: inst });
  return { expression, program: checked, celType: checked.outputType, outputType: out, functions };
}

/**
 * Compile a policy's variables in order; each may use those before it (upstream
 * CompileAndStoreVariables). A variable that fails to compile is typed dyn for the rest.
 */
export function compileVariables(
  vars: readonly { name: string; expression: string }[],
  opts: AdmissionCelOptions,
): CompiledVariable[] {
  const out: CompiledVariable[] = [];
  for (const v of vars)
    out.push({
      name: v.name,
      compiled: compileAdmissionExpression(v.expression, ['any'], { ...opts, variables: out }),
    });
  return out;
}

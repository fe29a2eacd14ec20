/**
 * Compilation of one schema node's `x-kubernetes-validations`, as upstream's Compile
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go): each rule is parsed and
 * type-checked with `self` typed from the node's schema and `oldSelf` the same type (optional when
 * `optionalOldSelf`); it must be a bool (`cel expression must evaluate to a bool`); a rule that
 * references `oldSelf` is a transition rule; `messageExpression` must be a string; the estimated
 * cost (per call) and the node's max cardinality are kept for the CRD's cost limits.
 */
import type { Structural, ValidationRule } from '../crd-schema/types.js';
import { CelSyntaxError, parseCel } from './ast.js';
import { formatErrors } from './error-format.js';
import { type Checked, check } from './checker.js';
import { estimateCost } from './cost-estimate.js';
import { type DeclType, MAX_REQUEST_SIZE_BYTES, schemaDeclType } from './decl-type.js';
import { type EnvKind, celFunctions } from './env.js';
import { validFieldPath } from './field-path.js';
import { instantiationError } from './literal-validators.js';
import type { FunctionRegistry } from './functions.js';
import { type CelType, formatType, optionalOf } from './types.js';

/** A compile problem: upstream's apiservercel.Error (Invalid or Internal) with its detail. */
export interface CompileError {
  type: 'Invalid' | 'Internal';
  detail: string;
}

/** One rule compiled (upstream CompilationResult). */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Undefined for an empty rule or when `error` is set. */
  readonly program?: Checked;
  readonly error?: CompileError;
  readonly usesOldSelf: boolean;
  /** Estimated worst-case cost of one evaluation. */
  readonly maxCost: number;
  /** How many times the node could occur in a request of MaxRequestSizeBytes. */
  readonly maxCardinality: number;
  readonly messageExpression?: Checked;
  readonly messageExpressionError?: CompileError;
  readonly messageExpressionMaxCost: number;
  /** `fieldPath` normalized (`spec.a[key]`), or '' when not set or invalid. */
  readonly normalizedFieldPath: string;
  readonly functions: FunctionRegistry;
}

/** Options of {@link compileRules}. */
export interface CompileOptions {
  /** The function environment (default `stored`); upstream compiles new expressions at the compatibility version. */
  env?: EnvKind | ((expression: string) => EnvKind);
  /** The node is the root of a resource (the CRD root, or an embedded resource). */
  isResourceRoot?: boolean;
}

let typeCounter = 0;

/** Compile the rules of `s`; [] when it has none. Throws nothing. */
export function compileRules(s: Structural, opts: CompileOptions = {}): CompiledRule[] {
  const rules = s.extensions?.xValidations ?? [];
  if (rules.length === 0) return [];
  const declType = schemaDeclType(s, !!opts.isResourceRoot, `selfType${typeCounter++}`);
  const envOf = (expr: string): EnvKind => (typeof opts.env === 'function' ? opts.env(expr) : (opts.env ?? 'stored'));
  if (!declType) {
    const detail = 'failed to convert to declType for CEL validation rules';
    return rules.map((rule) => emptyResult(rule, celFunctions(envOf(rule.rule)), { type: 'Internal', detail }));
  }
  const maxCardinality = Math.trunc(MAX_REQUEST_SIZE_BYTES / (declType.minSerializedSize + 1));
  return rules.map((rule) => compileRule(s, rule, declType, celFunctions(envOf(rule.rule)), maxCardinality, envOf));
}

function emptyResult(rule: ValidationRule, functions: FunctionRegistry, error?: CompileError): CompiledRule {
  return {
    rule,
    error,
    usesOldSelf: false,
    maxCost: 0,
    maxCardinality: 0,
    messageExpressionMaxCost: 0,
    normalizedFieldPath: '',
    functions,
  };
}

/** Parse and type-check `source` against `vars` and `functions`: the checked expression, or cel-go's error display. */
export function compileExpression(
  source: string,
  vars: Map<string, CelType>,
  functions: FunctionRegistry,
): Checked | { errors: string } {
  try {
    const ast = parseCel(source);
    const checked = check(ast, { vars, functions });
    return Array.isArray(checked) ? { errors: formatErrors(source, checked) } : checked;
  } catch (e) {
    if (e instanceof CelSyntaxError) return { errors: formatErrors(source, e.errors) };
    throw e;
  }
}

function compileRule(
  s: Structural,
  rule: ValidationRule,
  declType: DeclType,
  functions: FunctionRegistry,
  maxCardinality: number,
  envOf: (expr: string) => EnvKind,
): CompiledRule {
  if (rule.rule.trim().length === 0) return emptyResult(rule, functions);
  const self = declType.cel;
  const vars = new Map<string, CelType>([
    ['self', self],
    ['oldSelf', rule.optionalOldSelf ? optionalOf(self) : self],
  ]);
  const checked = compileExpression(rule.rule, vars, functions);
  if ('errors' in checked) {
    return emptyResult(rule, functions, { type: 'Invalid', detail: `compilation failed: ${checked.errors}` });
  }
  if (formatType(checked.outputType) !== 'bool') {
    return emptyResult(rule, functions, { type: 'Invalid', detail: 'cel expression must evaluate to a bool' });
  }
  const inst = instantiationError(checked.ast);
  if (inst) return emptyResult(rule, functions, { type: 'Invalid', detail: inst });
  const base = {
    rule,
    program: checked,
    usesOldSelf: checked.references.has('oldSelf'),
    maxCost: estimateCost(checked, declType).max,
    maxCardinality,
    messageExpressionMaxCost: 0,
    normalizedFieldPath: '',
    functions,
  };
  let result: CompiledRule = base;
  if (rule.messageExpression) {
    const msgFunctions = celFunctions(envOf(rule.messageExpression));
    const msg = compileExpression(rule.messageExpression, vars, msgFunctions);
    if ('errors' in msg) {
      result = {
        ...base,
        messageExpressionError: { type: 'Invalid', detail: `messageExpression compilation failed: ${msg.errors}` },
      };
    } else if (formatType(msg.outputType) !== 'string') {
      result = {
        ...base,
        messageExpressionError: { type: 'Invalid', detail: 'messageExpression must evaluate to a string' },
      };
    } else {
      result = { ...base, messageExpression: msg, messageExpressionMaxCost: estimateCost(msg, declType).max };
    }
    if (result.messageExpressionError) return result;
  }
  if (rule.fieldPath) {
    const fp = validFieldPath(rule.fieldPath, s);
    if ('path' in fp) result = { ...result, normalizedFieldPath: fp.path };
  }
  return result;
}

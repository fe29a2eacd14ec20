/**
 * Evaluation of compiled admission expressions for one request (upstream k8s.io/apiserver
 * pkg/admission/plugin/cel/activation.go and composition.go): the activation binds `object`,
 * `oldObject`, `params`, `request` and `namespaceObject` as schemaless values (JSON objects are
 * maps, integers int, other numbers double; an absent field is `no such key`), the authorizer
 * values, and `variables`, evaluated lazily on first use and cached for the request. Every
 * evaluation is limited to the per-call limit (1,000,000) and charged, with the variables it
 * evaluated, to one runtime budget shared by the request's expressions
 * (RuntimeCELCostBudget, 10,000,000).
 */
import { CostLimitExceeded, evaluate } from '../interpreter.js';
import { AuthorizerValue, type CelAuthorizer, type CelAuthzUser, requestResourceCheck } from '../lib-authz.js';
import { CelDuration, CelErr, CelMap, CelObject, CelTimestamp, type Result, type Value } from '../values.js';
import type { CompiledAdmissionExpression, CompiledVariable } from './compile.js';

/** upstream celconfig.PerCallLimit. */
export const ADMISSION_PER_CALL_LIMIT = 1_000_000;
/** upstream celconfig.RuntimeCELCostBudget: the budget of one policy's expressions for one request. */
export const ADMISSION_RUNTIME_BUDGET = 10_000_000;
/** The error of an exhausted budget, as upstream words it. */
export const OUT_OF_BUDGET =
  'validation failed due to running out of cost budget, no further validation rules will be run';

/** What the expressions see, as JSON. */
export interface AdmissionActivationInput {
  readonly object: unknown;
  readonly oldObject: unknown;
  readonly params?: unknown;
  readonly namespaceObject?: unknown;
  /** The AdmissionRequest as a webhook receives it, without object and oldObject. */
  readonly request: Readonly<Record<string, unknown>>;
  /** The authorizer (`authorizer`, `authorizer.requestResource`); absent when not declared. */
  readonly authorizer?: {
    readonly authorizer: CelAuthorizer;
    readonly user: CelAuthzUser;
    readonly requestResource: {
      group: string;
      resource: string;
      subresource: string;
      namespace: string;
      name: string;
    };
  };
}

/**
 * The outcome of one evaluation: the value as JSON, or upstream's error detail
 * (`expression 'x' resulted in error: no such key: y`, `compilation error: compilation failed:
 * ...`), or `outOfBudget` (with {@link OUT_OF_BUDGET}): no further expression may run.
 */
export type AdmissionEvaluation =
  | { readonly value: unknown; readonly cost: number }
  | { readonly error: string; readonly cost: number; readonly outOfBudget?: boolean };

/** JSON as a schemaless CEL value (upstream common.SchemalessTypedToVal / NativeToValue). */
export function jsonToCel(v: unknown): Value {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(jsonToCel);
  const m = new CelMap();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) m.entries.set(`s${k}`, [k, jsonToCel(x)]);
  return m;
}

/** A CEL result as JSON (int as a number, timestamps and durations as strings, maps as objects). */
export function celToJson(v: Value): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(celToJson);
  if (v instanceof CelMap) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.entries.values()) out[String(k)] = celToJson(x);
    return out;
  }
  if (v instanceof CelObject) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v.fields) out[k] = celToJson(x);
    return out;
  }
  if (v instanceof CelTimestamp || v instanceof CelDuration) return String(v);
  return String(v);
}

/** The `variables` fields: each evaluated on first read, then cached (upstream lazy.MapValue). */
class LazyVariables extends Map<string, Value> {
  private readonly done = new Map<string, Value>();
  constructor(
    private readonly compiled: ReadonlyMap<string, CompiledAdmissionExpression>,
    private readonly run: (name: string, c: CompiledAdmissionExpression) => Value,
  ) {
    super();
  }
  override has(k: string): boolean {
    return this.compiled.has(k);
  }
  override get(k: string): Value | undefined {
    if (this.done.has(k)) return this.done.get(k);
    const c = this.compiled.get(k);
    if (!c) return undefined;
    const v = this.run(k, c);
    this.done.set(k, v);
    return v;
  }
}

/** One request's evaluation context (upstream evaluationActivation with its composition context). */
export class AdmissionEvaluator {
  private budget: number;
  /** Cost of variables evaluated since the last charge (upstream compositionContext.accumulatedCost). */
  private pending = 0;
  private readonly vars = new Map<string, Value>();

  /**
   * @param input the request's values (JSON).
   * @param variables the policy's compiled variables (may be empty).
   * @param budget the runtime budget shared by every evaluate() (default {@link ADMISSION_RUNTIME_BUDGET}).
   */
  constructor(input: AdmissionActivationInput, variables: readonly CompiledVariable[] = [], budget?: number) {
    this.budget = budget ?? ADMISSION_RUNTIME_BUDGET;
    this.vars.set('object', jsonToCel(input.object));
    this.vars.set('oldObject', jsonToCel(input.oldObject));
    this.vars.set('params', jsonToCel(input.params));
    this.vars.set('request', jsonToCel(input.request));
    this.vars.set('namespaceObject', jsonToCel(input.namespaceObject));
    if (input.authorizer) {
      const a = new AuthorizerValue(input.authorizer.authorizer, input.authorizer.user);
      this.vars.set('authorizer', a);
      this.vars.set('authorizer.requestResource', requestResourceCheck(a, input.authorizer.requestResource));
    }
    const byName = new Map(variables.map((v) => [v.name, v.compiled]));
    const lazy = new LazyVariables(byName, (name, c) => this.variable(name, c));
    this.vars.set('variables', new CelObject('kubernetes.variables', lazy));
  }

  /** What is left of the runtime budget. */
  get remainingBudget(): number {
    return this.budget;
  }

  private variable(name: string, c: CompiledAdmissionExpression): Value {
    if (c.error) return new CelErr(`composited variable "${name}" fails to compile: ${c.error.detail}`) as never;
    const { result, cost } = this.run(c);
    this.pending += cost;
    if (result instanceof CelErr)
      return new CelErr(`composited variable "${name}" fails to evaluate: ${result.message}`) as never;
    return result;
  }

  private run(c: CompiledAdmissionExpression): { result: Result; cost: number } {
    try {
      return evaluate(c.program!, this.vars, c.functions, ADMISSION_PER_CALL_LIMIT);
    } catch (e) {
      if (!(e instanceof CostLimitExceeded)) throw e;
      return { result: new CelErr(e.message), cost: (e as CostLimitExceeded & { cost: number }).cost };
    }
  }

  /** Evaluate `c` (upstream evaluationActivation.Evaluate). Throws nothing for CEL errors. */
  evaluate(c: CompiledAdmissionExpression): AdmissionEvaluation {
    if (c.error) return { error: `compilation error: ${c.error.detail}`, cost: 0 };
    if (!c.program) return { error: 'unexpected internal error compiling expression', cost: 0 };
    const { result, cost } = this.run(c);
    const composition = this.pending;
    this.pending = 0;
    if (composition > this.budget) return this.exhausted(cost);
    this.budget -= composition;
    if (cost > this.budget) return this.exhausted(cost);
    this.budget -= cost;
    if (result instanceof CelErr)
      return { error: `expression '${c.expression}' resulted in error: ${result.message}`, cost };
    return { value: celToJson(result), cost };
  }

  private exhausted(cost: number): AdmissionEvaluation {
    this.budget = -1;
    return { error: OUT_OF_BUDGET, cost, outOfBudget: true };
  }
}

/**
 * Run-time evaluation of `x-kubernetes-validations`, as upstream 1.33's Validator
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go, v0.33.0): rules compiled once
 * per schema, evaluated on create and update depth first with one cost budget per object
 * (RuntimeCELCostBudget 10,000,000) and a limit per evaluation (PerCallLimit 1,000,000);
 * transition rules (those using `oldSelf`) only where an old value correlates (object fields,
 * granular/atomic maps, `x-kubernetes-list-type: map` items) unless `optionalOldSelf`; errors
 * of rules without `oldSelf` on a node equal to its old value are ratcheted (returned as
 * warnings, CRDValidationRatcheting, GA in 1.33). Messages are upstream's:
 * `spec: Invalid value: "object": failed rule: self.a < self.b`.
 */
import type { Structural } from '../crd-schema/types.js';
import { listMapKeyOf } from '../crd-schema/values.js';
import { fieldPath as fp } from '../crd-schema/go-format.js';
import { type NodeValidator } from '../crd-schema/validate.js';
import { type FieldError, internal, invalidValue, required, forbidden } from '../validation/field-errors.js';
import { withTypeAndObjectMeta } from './decl-type.js';
import { type Correlation, indexCorr, isObject, keyCorr, shouldRatchet } from './ratcheting.js';
import { type Node, build } from './validator-tree.js';
import { type EnvKind } from './env.js';
import { CostLimitExceeded, evaluate } from './interpreter.js';
import { toValue } from './to-value.js';
import { CelErr, CelOptional, type Value } from './values.js';
import { evalMessage, ruleErrorString, ruleMessageOrDefault } from './messages.js';

/** k8s.io/apiserver pkg/apis/cel/config.go. */
export const PER_CALL_LIMIT = 1_000_000;
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

/** Options of {@link CelValidator.validate}. */
export interface CelValidateOptions {
  /** The stored object on update. */
  oldObj?: unknown;
  /** Field path of `obj` (upstream passes nil for a whole resource: ''). */
  fieldPath?: string;
  /** Cost budget for this object (default RUNTIME_CEL_COST_BUDGET). */
  budget?: number;
}

/** The outcome: errors, ratcheted errors as warnings, and the budget left (negative when exhausted). */
export interface CelValidateResult {
  errors: FieldError[];
  warnings: string[];
  remainingBudget: number;
}

/** The x-kubernetes-validations of one CRD version's structural schema, compiled once. */
export class CelValidator {
  private readonly root?: Node;

  /** Compile every rule under `schema` (a resource root unless `isResourceRoot` is false). */
  constructor(schema: Structural, opts: { isResourceRoot?: boolean; env?: EnvKind; perCallLimit?: number } = {}) {
    this.perCallLimit = opts.perCallLimit ?? PER_CALL_LIMIT;
    this.root = build(schema, schema, opts.isResourceRoot ?? true, opts.env ?? 'stored');
  }
  private readonly perCallLimit: number;

  /** Whether the schema has any rule. */
  get hasRules(): boolean {
    return this.root !== undefined;
  }

  /** Validate `obj` (and its update from `opts.oldObj`). */
  validate(obj: unknown, opts: CelValidateOptions = {}): CelValidateResult {
    const out: CelValidateResult = {
      errors: [],
      warnings: [],
      remainingBudget: opts.budget ?? RUNTIME_CEL_COST_BUDGET,
    };
    const hasOld = opts.oldObj !== undefined && opts.oldObj !== null;
    const corr: Correlation = hasOld ? { current: { value: obj, old: opts.oldObj } } : {};
    this.walk(this.root, opts.fieldPath ?? '', obj, hasOld ? opts.oldObj : undefined, corr, out);
    return out;
  }

  /**
   * A NodeValidator for `validateCustomObject` that validates the whole object when called for
   * its root node and returns [] for the nodes below (the walk here follows upstream's order
   * and correlation). Ratcheted errors are appended to `warnings`. Make one per object
   * validated: it validates only at its first call.
   */
  nodeValidator(opts: Omit<CelValidateOptions, 'oldObj'> = {}, warnings: string[] = []): NodeValidator {
    let done = false;
    return (node) => {
      if (done) return [];
      done = true;
      const r = this.validate(node.value, {
        ...opts,
        fieldPath: node.path,
        oldObj: node.hasOldValue ? node.oldValue : undefined,
      });
      warnings.push(...r.warnings);
      return r.errors;
    };
  }

  private walk(
    n: Node | undefined,
    path: string,
    obj: unknown,
    old: unknown,
    corr: Correlation,
    out: CelValidateResult,
  ) {
    if (!n || obj === null || obj === undefined || out.remainingBudget < 0) return;
    this.expressions(n, path, obj, old, corr, out);
    if (out.remainingBudget < 0) return;
    for (const a of n.allOf ?? []) {
      // allOf errors are not ratcheted by the node itself (upstream passes only the parent correlation).
      this.walk(a, path, obj, old, { parent: corr.parent }, out);
      if (out.remainingBudget < 0) return;
    }
    if (Array.isArray(obj) && n.items) {
      const keys = n.schema.extensions?.xListType === 'map' ? (n.schema.extensions.xListMapKeys ?? []) : undefined;
      const olds = Array.isArray(old) && keys ? old : [];
      const byKey = new Map(olds.map((o) => [listMapKeyOf(o, keys ?? []), o]));
      obj.forEach((item, i) => {
        if (out.remainingBudget < 0) return;
        const oldItem = keys ? byKey.get(listMapKeyOf(item, keys)) : undefined;
        this.walk(n.items, fp.index(path, i), item, oldItem, indexCorr(corr, i, keys), out);
      });
    } else if (isObject(obj)) {
      const mt = n.schema.extensions?.xMapType;
      const correlatable = mt === undefined || mt === 'granular' || mt === 'atomic';
      const oldMap = correlatable && isObject(old) ? old : undefined;
      for (const [k, v] of Object.entries(obj)) {
        if (out.remainingBudget < 0) return;
        if (n.additionalProperties) {
          this.walk(n.additionalProperties, fp.key(path, k), v, oldMap?.[k], keyCorr(corr, k), out);
        }
        const p = n.properties?.get(k);
        if (p) this.walk(p, fp.child(path, k), v, oldMap?.[k], keyCorr(corr, k), out);
      }
    }
  }

  private expressions(n: Node, path: string, obj: unknown, old: unknown, corr: Correlation, out: CelValidateResult) {
    if (n.rules.length === 0) return;
    if (!n.declType) {
      const detail = 'rule compiler initialization error: failed to convert to declType for CEL validation rules';
      out.errors.push(invalidValue(path, n.schema.generic?.type ?? '', detail));
      return;
    }
    const sts = n.isResourceRoot ? withTypeAndObjectMeta(n.schema) : n.schema;
    const type = sts.generic?.type ?? '';
    const inv = (p: string, detail: string) => invalidValue(p, type, detail);
    if (out.remainingBudget <= 0) {
      out.errors.push(
        inv(path, 'validation failed due to running out of cost budget, no further validation rules will be run'),
      );
      out.remainingBudget = -1;
      return;
    }
    const hasOld = old !== undefined && old !== null;
    const self = toValue(obj, n.declType!);
    const oldSelf = hasOld ? toValue(old, n.declType!) : undefined;
    for (const c of n.rules) {
      const rule = c.rule;
      if (c.error) {
        out.errors.push(inv(path, `rule compile error: ${c.error.detail}`));
        continue;
      }
      if (!c.program) continue;
      const optional = !!rule.optionalOldSelf;
      if (c.usesOldSelf && !hasOld && !optional) continue;
      const vars = new Map<string, Value>();
      if (!(self instanceof CelErr)) vars.set('self', self);
      if (c.usesOldSelf && oldSelf !== undefined && !(oldSelf instanceof CelErr)) {
        vars.set('oldSelf', optional ? new CelOptional(oldSelf) : oldSelf);
      } else if (optional) vars.set('oldSelf', new CelOptional(undefined));
      let result: Value | CelErr;
      let cost: number;
      let limited = false;
      try {
        ({ result, cost } = evaluate(c.program, vars, c.functions, this.perCallLimit));
      } catch (e) {
        if (!(e instanceof CostLimitExceeded)) throw e;
        limited = true;
        result = new CelErr(e.message);
        cost = (e as CostLimitExceeded & { cost: number }).cost;
      }
      if (self instanceof CelErr && !limited) result = self;
      if (cost > out.remainingBudget) {
        out.errors.push(
          inv(path, 'validation failed due to running out of cost budget, no further validation rules will be run'),
        );
        out.remainingBudget = -1;
        return;
      }
      out.remainingBudget -= cost;
      if (result instanceof CelErr) {
        const msg = result.message;
        if (msg.startsWith('no such overload')) {
          out.errors.push(
            inv(
              path,
              `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`,
            ),
          );
        } else if (limited) {
          out.errors.push(
            inv(
              path,
              `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`,
            ),
          );
          out.remainingBudget = -1;
          return;
        } else {
          out.errors.push(inv(path, `${msg} evaluating rule: ${ruleErrorString(rule)}`));
        }
        continue;
      }
      if (result === true) continue;
      const at = c.normalizedFieldPath ? fp.child(path, c.normalizedFieldPath) : path;
      const ratchet = !c.usesOldSelf && shouldRatchet(corr);
      const addErr = (e: FieldError) => (ratchet ? out.warnings.push(`${e.field}: ${e.message}`) : out.errors.push(e));
      let detail = ruleMessageOrDefault(rule);
      if (c.messageExpression) {
        const m = evalMessage(c, rule.messageExpression!, vars, out.remainingBudget, this.perCallLimit);
        out.remainingBudget = m.remainingBudget;
        if (m.error?.type === 'Invalid') {
          addErr(inv(at, m.error.detail));
          out.remainingBudget = -1;
          return;
        }
        if (m.error?.type === 'Internal') {
          addErr(internal(at, m.error.detail));
          out.remainingBudget = -1;
          return;
        }
        if (m.message !== undefined) detail = m.message;
      }
      addErr(errorForReason(at, type, detail, rule.reason));
    }
  }
}

function errorForReason(path: string, type: string, detail: string, reason?: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return { reason: 'FieldValueDuplicate', field: path, message: `Duplicate value: ${JSON.stringify(type)}` };
    default:
      return invalidValue(path, type, detail);
  }
}

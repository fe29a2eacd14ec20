/**
 * Validation of a CRD version's `x-kubernetes-validations` when the CRD is written, as upstream
 * 1.33's ValidateCustomResourceDefinitionOpenAPISchema does for them (apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation.go and cel_validation.go, v0.33.0): the rule
 * fields (`rule is not specified`, message, messageExpression, reason, fieldPath), then, when those
 * are fine, compilation (`compilation failed: ERROR: <input>:1:6: undefined field 'foo'`), the
 * estimated cost per rule × the node's max cardinality against StaticEstimatedCostLimit
 * (10,000,000) and the sum over the schema against StaticEstimatedCRDCostLimit (100,000,000),
 * `oldSelf` only where values correlate, `optionalOldSelf` only with `oldSelf`. Call it only for
 * a schema that is structural (upstream skips CEL checks otherwise). Rules inside allOf/anyOf/
 * oneOf/not are not checked here.
 */
import { fieldPath as fp, goQuote } from '../crd-schema/go-format.js';
import { toStructural } from '../crd-schema/structural.js';
import type { JSONSchemaProps, ValidationRule } from '../crd-schema/types.js';
import { type FieldError, forbidden, invalidValue, notSupported, required } from '../validation/field-errors.js';
import { compileRules } from './compile.js';
import { UINT64_MAX } from './cost-estimate.js';
import { validFieldPath as validFieldPathOf } from './field-path.js';
import type { EnvKind } from './env.js';

/** Upstream StaticEstimatedCostLimit: per expression × max cardinality. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** Upstream StaticEstimatedCRDCostLimit: the sum over a version's schema. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** Options of {@link validateCrdValidationRules}. */
export interface CrdRulesOptions {
  /** Rules and messageExpressions of the stored CRD (compiled in the `stored` environment). */
  preexisting?: ReadonlySet<string>;
  /** The version's schema did not change: per-expression cost limits are not enforced. */
  suppressPerExpressionCost?: boolean;
  /**
   * The caller reports the rule fields' problems itself (the CRD kind's schema validation):
   * they only keep a node's rules from being compiled, as upstream's order has it.
   */
  ruleFieldsReported?: boolean;
}

interface Ctx {
  cardinality?: number;
  forbidOldSelf?: string;
}

/** Upstream getCostErrorMessage. */
export function costErrorMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Go's %#v of the internal ValidationRule (the value upstream's compile errors print). */
export function goRuleValue(r: ValidationRule): string {
  const reason = r.reason
    ? '(*apiextensions.FieldValueErrorReason)(0xc000000000)'
    : '(*apiextensions.FieldValueErrorReason)(nil)';
  const oos = r.optionalOldSelf !== undefined ? '(*bool)(0xc000000000)' : '(*bool)(nil)';
  return `apiextensions.ValidationRule{Rule:${goQuote(r.rule)}, Message:${goQuote(r.message ?? '')}, MessageExpression:${goQuote(r.messageExpression ?? '')}, Reason:${reason}, FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${oos}}`;
}

const mul = (a: number, b: number): number => (a === 0 ? 0 : Math.min(UINT64_MAX, a * b));

/**
 * The FieldErrors of the rules under `schema` (the version's openAPIV3Schema) at `path`
 * (e.g. `spec.versions[0].schema.openAPIV3Schema`).
 */
export function validateCrdValidationRules(
  schema: JSONSchemaProps,
  path: string,
  opts: CrdRulesOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const total = { sum: 0, expensive: [] as { path: string; cost: number }[] };
  const observe = (p: string, cost: number) => {
    total.sum = Math.min(UINT64_MAX, total.sum + cost);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    total.expensive.push({ path: p, cost });
    total.expensive.sort((a, b) => b.cost - a.cost);
    total.expensive.length = Math.min(total.expensive.length, 4);
  };
  const env = (expr: string): EnvKind => (opts.preexisting?.has(expr) ? 'stored' : 'new');

  const visit = (s: JSONSchemaProps, p: string, ctx: Ctx, isRoot: boolean): void => {
    const childCard = (): number | undefined => {
      if (ctx.cardinality === undefined) return undefined;
      let max: number | undefined = 1;
      if (s.type === 'object' && s.additionalProperties !== undefined)
        max = s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : undefined;
      else if (s.type === 'array') max = s.maxItems !== undefined ? Math.max(0, s.maxItems) : undefined;
      return max === undefined ? undefined : mul(ctx.cardinality, max);
    };
    if (typeof s.additionalProperties === 'object' && s.additionalProperties) {
      visit(
        s.additionalProperties,
        fp.child(p, 'additionalProperties'),
        { cardinality: childCard(), forbidOldSelf: ctx.forbidOldSelf },
        false,
      );
    }
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      const forbid = ['granular', 'atomic', undefined].includes(s['x-kubernetes-map-type'])
        ? ctx.forbidOldSelf
        : (ctx.forbidOldSelf ?? p);
      visit(v, fp.key(fp.child(p, 'properties'), k), { cardinality: childCard(), forbidOldSelf: forbid }, false);
    }
    if (s.items && !Array.isArray(s.items)) {
      const forbid = s['x-kubernetes-list-type'] === 'map' ? ctx.forbidOldSelf : (ctx.forbidOldSelf ?? p);
      visit(s.items, fp.child(p, 'items'), { cardinality: childCard(), forbidOldSelf: forbid }, false);
    }
    const rules = s['x-kubernetes-validations'] ?? [];
    if (!rules.length) return;
    const at = (i: number, f: string) => fp.child(fp.index(fp.child(p, 'x-kubernetes-validations'), i), f);
    const schemaErrs = ruleFieldErrors(s, rules, at);
    if (!opts.ruleFieldsReported) errs.push(...schemaErrs);
    if (schemaErrs.length) return;
    let structural;
    try {
      structural = toStructural(s)!;
    } catch {
      return;
    }
    const results = compileRules(structural, { isResourceRoot: isRoot || !!s['x-kubernetes-embedded-resource'], env });
    results.forEach((cr, i) => {
      const rule = rules[i]!;
      const cost = mul(cr.maxCost, ctx.cardinality ?? cr.maxCardinality);
      if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
        errs.push(forbidden(at(i, 'rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      observe(at(i, 'rule'), cost);
      if (cr.error) {
        errs.push({
          reason: 'FieldValueInvalid',
          field: at(i, 'rule'),
          message: `Invalid value: ${goRuleValue(rule)}: ${cr.error.detail}`,
        });
      }
      if (cr.messageExpressionError) {
        errs.push({
          reason: 'FieldValueInvalid',
          field: at(i, 'messageExpression'),
          message: `Invalid value: ${goRuleValue(rule)}: ${cr.messageExpressionError.detail}`,
        });
      } else if (cr.messageExpression) {
        const mc = cr.messageExpressionMaxCost;
        if (!opts.suppressPerExpressionCost && mc > STATIC_ESTIMATED_COST_LIMIT) {
          errs.push(
            forbidden(
              at(i, 'messageExpression'),
              costErrorMessage('estimated messageExpression cost', mc, STATIC_ESTIMATED_COST_LIMIT),
            ),
          );
        }
        observe(at(i, 'messageExpression'), mc);
      }
      if (cr.usesOldSelf) {
        if (ctx.forbidOldSelf !== undefined) {
          errs.push(
            invalidValue(
              at(i, 'rule'),
              rule.rule,
              `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.forbidOldSelf}`,
            ),
          );
        }
      } else if (rule.optionalOldSelf !== undefined) {
        errs.push(
          invalidValue(at(i, 'optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'),
        );
      }
    });
  };
  visit(schema, path, { cardinality: 1 }, true);
  if (total.sum > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const e of total.expensive) {
      errs.push(
        forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'),
      );
    }
    errs.push(
      forbidden(
        path,
        costErrorMessage(
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema',
          total.sum,
          STATIC_ESTIMATED_CRD_COST_LIMIT,
        ),
      ),
    );
  }
  return errs;
}

function ruleFieldErrors(
  s: JSONSchemaProps,
  rules: ValidationRule[],
  at: (i: number, f: string) => string,
): FieldError[] {
  const errs: FieldError[] = [];
  const nl = (x: string) => /[\n\r]+/.test(x);
  rules.forEach((r, i) => {
    const rule = (r.rule ?? '').trim();
    const msg = (r.message ?? '').trim();
    if (!rule) errs.push(required(at(i, 'rule'), 'rule is not specified'));
    else if (r.message && !msg)
      errs.push(invalidValue(at(i, 'message'), r.message, 'message must be non-empty if specified'));
    else if (nl(msg)) errs.push(invalidValue(at(i, 'message'), r.message, 'message must not contain line breaks'));
    else if (nl(rule) && !msg)
      errs.push(required(at(i, 'message'), 'message must be specified if rule contains line breaks'));
    if (r.messageExpression && !r.messageExpression.trim()) {
      errs.push(required(at(i, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (r.reason !== undefined && !REASONS.includes(r.reason))
      errs.push(notSupported(at(i, 'reason'), r.reason, REASONS));
    if (r.fieldPath) {
      if (!r.fieldPath.trim())
        errs.push(invalidValue(at(i, 'fieldPath'), r.fieldPath, 'fieldPath must be non-empty if specified'));
      if (nl(r.fieldPath))
        errs.push(invalidValue(at(i, 'fieldPath'), r.fieldPath, 'fieldPath must not contain line breaks'));
      if (!pathValid(s, r.fieldPath))
        errs.push(invalidValue(at(i, 'fieldPath'), r.fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}

function pathValid(s: JSONSchemaProps, path: string): boolean {
  try {
    const st = toStructural(s);
    return st ? 'path' in validFieldPathOf(path, st) : true;
  } catch {
    return true;
  }
}

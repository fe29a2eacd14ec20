/**
 * Rule messages as upstream words them (apiextensions-apiserver pkg/apiserver/schema/cel/
 * validation.go, v0.33.0): `failed rule: <rule>` when no message, the trimmed message otherwise,
 * and the evaluation of `messageExpression` with its own checks (a string of at most 5,120
 * bytes, no line breaks, not empty) and cost accounting.
 */
import type { ValidationRule } from '../crd-schema/types.js';
import type { CompiledRule, CompileError } from './compile.js';
import { CostLimitExceeded, evaluate } from './interpreter.js';
import { CelErr, type Value } from './values.js';

/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
export const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

/** The rule as error texts name it: its message if any, else its expression (trimmed). */
export function ruleErrorString(rule: ValidationRule): string {
  return rule.message ? rule.message.trim() : rule.rule.trim();
}

/** The detail of a failed rule without messageExpression. */
export function ruleMessageOrDefault(rule: ValidationRule): string {
  return rule.message ? rule.message.trim() : `failed rule: ${ruleErrorString(rule)}`;
}

/** The outcome of a messageExpression: a message, or an error (Invalid/Internal stop validation). */
export interface MessageResult {
  message?: string;
  error?: CompileError | { type: 'Other'; detail: string };
  remainingBudget: number;
}

/** Upstream evalMessageExpression. */
export function evalMessage(
  c: CompiledRule,
  source: string,
  vars: ReadonlyMap<string, Value>,
  remainingBudget: number,
  perCallLimit: number,
): MessageResult {
  let result: Value | CelErr;
  let cost: number;
  try {
    ({ result, cost } = evaluate(c.messageExpression!, vars, c.functions, perCallLimit));
  } catch (e) {
    if (!(e instanceof CostLimitExceeded)) throw e;
    const spent = (e as CostLimitExceeded & { cost: number }).cost;
    if (spent > remainingBudget) return budgetExceeded();
    return {
      error: {
        type: 'Invalid',
        detail: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(source)}`,
      },
      remainingBudget: -1,
    };
  }
  if (cost > remainingBudget) return budgetExceeded();
  const left = remainingBudget - cost;
  if (result instanceof CelErr) {
    return {
      error: { type: 'Other', detail: `messageExpression evaluation failed due to: ${result.message}` },
      remainingBudget: left,
    };
  }
  if (typeof result !== 'string') {
    return { error: { type: 'Other', detail: 'messageExpression failed to convert to string' }, remainingBudget: left };
  }
  const msg = result.trim();
  let detail = '';
  if (Buffer.byteLength(msg) > MAX_MESSAGE_EXPRESSION_BYTES) {
    detail = `messageExpression beyond allowable length of ${MAX_MESSAGE_EXPRESSION_BYTES}`;
  } else if (/\n/.test(msg)) detail = 'messageExpression should not contain line breaks';
  else if (msg.length === 0) detail = 'messageExpression should evaluate to a non-empty string';
  return detail ? { error: { type: 'Other', detail }, remainingBudget: left } : { message: msg, remainingBudget: left };
}

function budgetExceeded(): MessageResult {
  return {
    error: {
      type: 'Invalid',
      detail:
        'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run',
    },
    remainingBudget: -1,
  };
}

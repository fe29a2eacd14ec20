// Upstream's table-driven CEL tests, run against this package: TestValidationExpressions and
// TestValidationExpressionsAtSchemaLevels of apiextensions-apiserver pkg/apiserver/schema/cel/
// validation_test.go (v0.33.0), case texts in testdata/*.json. Each valid rule must pass with no
// error; each error rule must fail with errors that all contain upstream's expected text.
import { describe, expect, it } from 'vitest';
import { CelValidator } from './validator.js';
import { evalCase, fromGo, HELPERS } from './testdata/go-cases.js';
import expressions from './testdata/validation-expressions.json' with { type: 'json' };
import levels from './testdata/schema-levels.json' with { type: 'json' };

/** Cases that need int64 values beyond 2^53, which JSON numbers here cannot carry exactly. */
const UNREPRESENTABLE = /math_(MaxInt64|MinInt64)/;

interface ExprCase {
  name: string;
  schema: Record<string, unknown>;
  obj: unknown;
  oldObj?: unknown;
  valid?: string[];
  errors?: Record<string, string>;
  costBudget?: number;
  isRoot?: boolean;
  expectSkipped?: boolean;
  expectedCost?: number;
}

const withRule = HELPERS.withRule as (s: unknown, r: string) => Record<string, unknown>;
const representable = (expressions as string[]).filter((t) => !UNREPRESENTABLE.test(t));

describe('upstream TestValidationExpressions (v0.33.0)', () => {
  it('keeps every case but those needing int64 beyond 2^53', () => {
    expect(expressions.length - representable.length).toBe(1);
  });
  for (const text of representable) {
    const tc = evalCase(text) as unknown as ExprCase;
    const budget = tc.costBudget ?? 10_000_000;
    describe(tc.name, () => {
      for (const rule of tc.valid ?? []) {
        it(`valid: ${rule.slice(0, 120)}`, () => {
          const s = fromGo(withRule(tc.schema, rule))!;
          const v = new CelValidator(s, { isResourceRoot: !!tc.isRoot });
          const r = v.validate(tc.obj, { fieldPath: 'root', oldObj: tc.oldObj, budget });
          expect(r.errors.map((e) => `${e.field}: ${e.message}`)).toEqual([]);
          if (tc.expectedCost) expect(budget - r.remainingBudget).toBe(tc.expectedCost);
          else if (tc.expectSkipped) expect(r.remainingBudget).toBe(budget);
        });
      }
      for (const [rule, want] of Object.entries(tc.errors ?? {})) {
        it(`error: ${rule.slice(0, 120)}`, () => {
          const s = fromGo(withRule(tc.schema, rule))!;
          const r = new CelValidator(s).validate(tc.obj, { fieldPath: 'root', oldObj: tc.oldObj, budget });
          expect(r.errors.length).toBeGreaterThan(0);
          for (const e of r.errors) {
            expect(e.reason).toBe('FieldValueInvalid');
            expect(`${e.field}: ${e.message}`).toContain(want);
          }
        });
      }
    });
  }
});

describe('upstream TestValidationExpressionsAtSchemaLevels (v0.33.0)', () => {
  for (const text of levels as string[]) {
    const tc = evalCase(text) as unknown as {
      name: string;
      schema: Record<string, unknown>;
      obj: unknown;
      oldObj?: unknown;
      errors?: string[];
    };
    it(tc.name, () => {
      const r = new CelValidator(fromGo(tc.schema)!).validate(tc.obj, {
        fieldPath: 'root',
        oldObj: tc.oldObj,
        budget: Number.MAX_SAFE_INTEGER,
      });
      // Each error matches a distinct expected text, in any order (upstream's check).
      const unmatched = [...(tc.errors ?? [])];
      for (const e of r.errors) {
        expect(e.reason).toBe('FieldValueInvalid');
        const i = unmatched.findIndex((want) => `${e.field}: ${e.message}`.includes(want));
        expect(i, `${e.field}: ${e.message}`).toBeGreaterThanOrEqual(0);
        unmatched.splice(i, 1);
      }
      expect(unmatched).toEqual([]);
    });
  }
});

// More of upstream's validation_test.go (apiextensions-apiserver pkg/apiserver/schema/cel,
// v0.33.0), case texts in testdata/*.json: TestMessageExpression, TestReasonAndFldPath,
// TestRatcheting and TestOptionalOldSelf, checked as upstream checks them.
import { describe, expect, it } from 'vitest';
import { CelValidator } from './validator.js';
import { evalCase, fromGo, HELPERS } from './testdata/go-cases.js';
import messageCases from './testdata/message-expression.json' with { type: 'json' };
import reasonCases from './testdata/reason-fieldpath.json' with { type: 'json' };
import ratchetCases from './testdata/ratcheting.json' with { type: 'json' };
import optionalCases from './testdata/optional-old-self.json' with { type: 'json' };

const h = HELPERS as Record<string, (...a: unknown[]) => Record<string, unknown>>;
const line = (e: { field: string; message: string }) => `${e.field}: ${e.message}`;

describe('upstream TestMessageExpression (v0.33.0)', () => {
  for (const text of messageCases as string[]) {
    const tc = evalCase(text) as {
      name: string;
      costBudget?: number;
      perCallLimit?: number;
      message?: string;
      messageExpression: string;
      expectedValidationErr?: string;
      expectedRemainingBudget?: number;
    };
    it(tc.name, () => {
      const rule = { Rule: 'false', Message: tc.message ?? '', MessageExpression: tc.messageExpression };
      const s = fromGo({
        ...h.objectType!({ str: h.primitiveType!('string') }),
        ValidationExtensions: { XValidations: [rule] },
      })!;
      const v = new CelValidator(s, { isResourceRoot: false, perCallLimit: tc.perCallLimit || undefined });
      const r = v.validate({ str: 'a string' }, { fieldPath: 'root', budget: tc.costBudget ?? 0 });
      expect(r.errors.length).toBe(1);
      if (tc.expectedValidationErr) expect(line(r.errors[0]!)).toContain(tc.expectedValidationErr);
      if (tc.expectedRemainingBudget) expect(r.remainingBudget).toBe(tc.expectedRemainingBudget);
    });
  }
});

const REASONS: Record<string, string> = {
  Forbidden: 'FieldValueForbidden',
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
};

describe('upstream TestReasonAndFldPath (v0.33.0)', () => {
  for (const text of reasonCases as string[]) {
    const tc = evalCase(text) as {
      name: string;
      schema: Record<string, unknown>;
      obj: unknown;
      errors: { Type: string; Field: string }[];
    };
    it(tc.name, () => {
      const r = new CelValidator(fromGo(tc.schema)!).validate(tc.obj, { fieldPath: 'root' });
      const got = r.errors.map((e) => ({ reason: e.reason, field: e.field }));
      expect(got).toEqual(expect.arrayContaining(tc.errors.map((e) => ({ reason: REASONS[e.Type], field: e.Field }))));
      expect(got.length).toBe(tc.errors.length);
    });
  }
});

describe('upstream TestRatcheting (v0.33.0)', () => {
  for (const text of ratchetCases as string[]) {
    const tc = evalCase(text) as {
      name: string;
      schema: Record<string, unknown>;
      oldObj: unknown;
      newObj: unknown;
      errors?: string[];
      warnings?: string[];
      runtimeCostBudget?: number;
    };
    it(tc.name, () => {
      const v = new CelValidator(fromGo(tc.schema)!, { isResourceRoot: false });
      const r = v.validate(tc.newObj, {
        fieldPath: 'root',
        oldObj: tc.oldObj,
        budget: tc.runtimeCostBudget || undefined,
      });
      const errs = r.errors.map(line);
      expect(errs.length, errs.join('\n')).toBe(tc.errors?.length ?? 0);
      expect(r.warnings.length, r.warnings.join('\n')).toBe(tc.warnings?.length ?? 0);
      for (const want of tc.errors ?? [])
        expect(
          errs.some((e) => e.includes(want)),
          want,
        ).toBe(true);
      for (const want of tc.warnings ?? [])
        expect(
          r.warnings.some((w) => w.includes(want)),
          want,
        ).toBe(true);
    });
  }
});

describe('upstream TestOptionalOldSelf (v0.33.0)', () => {
  for (const text of optionalCases as string[]) {
    const tc = evalCase(text) as {
      name: string;
      schema: Record<string, unknown>;
      obj: unknown;
      oldObj?: unknown;
      errors?: string[];
    };
    it(tc.name, () => {
      const s = fromGo(tc.schema)!;
      for (const rule of s.extensions?.xValidations ?? []) rule.optionalOldSelf = true;
      const r = new CelValidator(s, { isResourceRoot: false }).validate(tc.obj, {
        fieldPath: 'root',
        oldObj: tc.oldObj ?? undefined,
      });
      const unmatched = [...(tc.errors ?? [])];
      for (const e of r.errors) {
        const i = unmatched.findIndex((want) => line(e).includes(want));
        expect(i, line(e)).toBeGreaterThanOrEqual(0);
        unmatched.splice(i, 1);
      }
      expect(unmatched).toEqual([]);
    });
  }
});

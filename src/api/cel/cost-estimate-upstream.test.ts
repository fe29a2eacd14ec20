// Upstream's TestCostEstimation (apiextensions-apiserver pkg/apiserver/schema/cel/
// compilation_test.go, v0.33.0), case texts in testdata/cost-estimation.json: the estimated max
// cost of one rule on a schema without size limits ("calc") and with a set maxItems /
// maxProperties / maxLength ("set") must equal upstream's figure (or exceed it where upstream
// only says it exceeds).
import { describe, expect, it } from 'vitest';
import { compileRules } from './compile.js';
import { GENERATORS, ITEM_SCHEMAS } from './testdata/cost-generators.js';
import { evalCase, fromGo, HELPERS } from './testdata/go-cases.js';
import cases from './testdata/cost-estimation.json' with { type: 'json' };

/** Cases whose generator is a Go closure or a generator not ported (7 of 67). */
const NOT_PORTED = /func\(|genAllMax|genOneMax/;

interface CostCase {
  name: string;
  schemaGenerator: (max: number | null) => Record<string, unknown>;
  expectedCalcCost?: number;
  expectCalcCostExceedsLimit?: number;
  setMaxElements: number;
  expectedSetCost?: number;
  expectedSetCostExceedsLimit?: number;
}

const texts = (cases as string[]).filter((t) => !NOT_PORTED.test(t));
// costLimit is upstream's test constant (100,000,000).
Object.assign(HELPERS, GENERATORS, ITEM_SCHEMAS, { costLimit: 100_000_000 });

function maxCost(schema: Record<string, unknown>): number {
  const [r] = compileRules(fromGo(schema)!, { env: 'new' });
  expect(r!.error?.detail).toBeUndefined();
  return r!.maxCost;
}

describe('upstream TestCostEstimation (v0.33.0)', () => {
  it('ports all but the 7 cases built by Go closures', () => {
    expect((cases as string[]).length - texts.length).toBe(7);
  });
  for (const text of texts) {
    const tc = evalCase(text) as unknown as CostCase;
    it(`${tc.name}: calc maxLength`, () => {
      const cost = maxCost(tc.schemaGenerator(null));
      if (tc.expectedCalcCost) expect(cost).toBe(tc.expectedCalcCost);
      if (tc.expectCalcCostExceedsLimit) expect(cost).toBeGreaterThanOrEqual(tc.expectCalcCostExceedsLimit);
    });
    it(`${tc.name}: set maxLength ${tc.setMaxElements}`, () => {
      const cost = maxCost(tc.schemaGenerator(tc.setMaxElements));
      if (tc.expectedSetCost) expect(cost).toBe(tc.expectedSetCost);
      if (tc.expectedSetCostExceedsLimit) expect(cost).toBeGreaterThanOrEqual(tc.expectedSetCostExceedsLimit);
    });
  }
});

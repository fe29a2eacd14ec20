// Upstream's TestCelCompilation (apiextensions-apiserver pkg/apiserver/schema/cel/compilation_test.go,
// v0.33.0), case texts in testdata/compilation.json: each rule's compilation result must match
// upstream's matchers (no error, an Invalid error containing a text, a transition rule or not,
// a messageExpression error containing a text).
import { describe, expect, it } from 'vitest';
import { type CompiledRule, compileRules } from './compile.js';
import { evalCase, fromGo } from './testdata/go-cases.js';
import cases from './testdata/compilation.json' with { type: 'json' };

type Matcher =
  | { kind: 'noError' }
  | { kind: 'invalidError'; contains: string }
  | { kind: 'messageExpressionError'; contains: string }
  | { kind: 'transitionRule'; t: boolean }
  | { kind: 'all'; m: Matcher[] };

function matches(m: Matcher, cr: CompiledRule): boolean {
  switch (m.kind) {
    case 'noError':
      return cr.error === undefined;
    case 'invalidError':
      return cr.error?.type === 'Invalid' && cr.error.detail.includes(m.contains);
    case 'messageExpressionError':
      return cr.messageExpressionError?.type === 'Invalid' && cr.messageExpressionError.detail.includes(m.contains);
    case 'transitionRule':
      return cr.usesOldSelf === m.t;
    case 'all':
      return m.m.every((x) => matches(x, cr));
  }
}

/**
 * Not evaluable here: the case whose matcher is a Go closure (`program is nil` for a
 * whitespace-only rule, checked below by hand) and the one calling upstream's test-only
 * `fakeFunction` library.
 */
const GO_CLOSURE = /fnMatcher|name: "unmodified expression may use CEL environment features/;

describe('upstream TestCelCompilation (v0.33.0)', () => {
  const texts = cases as string[];
  it('evaluates every case but the two that need Go', () => {
    expect(texts.filter((t) => GO_CLOSURE.test(t)).length).toBe(2);
  });
  for (const text of texts.filter((t) => !GO_CLOSURE.test(t))) {
    const tc = evalCase(text) as {
      name: string;
      input: Record<string, unknown>;
      expectedResults: Matcher[];
      unmodified?: boolean;
    };
    it(tc.name, () => {
      const results = compileRules(fromGo(tc.input)!, { env: tc.unmodified ? 'stored' : 'new' });
      expect(results.length).toBe(tc.expectedResults.length);
      tc.expectedResults.forEach((m, i) => {
        const r = results[i]!;
        expect(
          matches(m, r),
          `rule ${i + 1} ${r.rule.rule}: ${r.error?.detail ?? r.messageExpressionError?.detail ?? 'ok'}`,
        ).toBe(true);
      });
    });
  }
  it('whitespace-only rule: no error and no program', () => {
    const [r] = compileRules({ generic: { type: 'object' }, extensions: { xValidations: [{ rule: ' \t' }] } });
    expect(r!.error).toBeUndefined();
    expect(r!.program).toBeUndefined();
  });
});

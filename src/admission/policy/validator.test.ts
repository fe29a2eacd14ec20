import { describe, expect, it } from 'vitest';
import { compilePolicy } from './compile.js';
import type { PolicySpec } from './types.js';
import { validatePolicy, type ValidateInput } from './validator.js';

const input = (over: Partial<ValidateInput> = {}): ValidateInput => ({
  object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-1', labels: { a: 'b' } }, data: { k: 'v' } },
  oldObject: null,
  params: null,
  namespaceObject: { metadata: { name: 'ns-1', labels: { env: 'prod' } } },
  request: { operation: 'CREATE', name: 'cm-1', namespace: 'ns-1' },
  matchRequest: { operation: 'CREATE', name: 'cm-1', namespace: 'ns-1' },
  ...over,
});

const run = (spec: PolicySpec, over: Partial<ValidateInput> = {}) => validatePolicy(compilePolicy(spec), input(over));

describe('validations', () => {
  it('admits when true and denies with the expression, Invalid, when false', () => {
    expect(run({ validations: [{ expression: 'object.metadata.name == "cm-1"' }] }).decisions).toEqual([
      { action: 'admit', evaluation: 'admit', message: '', reason: '' },
    ]);
    expect(run({ validations: [{ expression: ' object.data.k == "x" ' }] }).decisions).toEqual([
      { action: 'deny', evaluation: 'deny', message: 'failed expression: object.data.k == "x"', reason: 'Invalid' },
    ]);
  });

  it('uses messageExpression, then message, and the reason given', () => {
    const spec: PolicySpec = {
      validations: [
        {
          expression: 'false',
          message: ' fixed ',
          messageExpression: '"name " + object.metadata.name',
          reason: 'Forbidden',
        },
        { expression: 'false', message: ' fixed ' },
        // a multi-line evaluated message is not used
        { expression: 'false', message: 'fallback', messageExpression: '"a\\nb"' },
      ],
    };
    expect(run(spec).decisions.map((d) => [d.message, d.reason])).toEqual([
      ['name cm-1', 'Forbidden'],
      ['fixed', 'Invalid'],
      ['fallback', 'Invalid'],
    ]);
  });

  it('decides runtime and compile errors by failurePolicy', () => {
    const failing = [{ expression: 'object.nope == "x"' }, { expression: 'nope' }];
    const fail = run({ validations: failing }).decisions;
    expect(fail[0]).toEqual({
      action: 'deny',
      evaluation: 'error',
      message: 'expression \'object.nope == "x"\' resulted in error: no such key: nope',
      reason: '',
    });
    expect(fail[1]!.message).toMatch(
      /^compilation error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'/,
    );
    expect(run({ validations: failing, failurePolicy: 'Ignore' }).decisions.map((d) => d.action)).toEqual([
      'admit',
      'admit',
    ]);
  });

  it('sees params, namespaceObject, request and variables', () => {
    const spec: PolicySpec = {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      variables: [
        { name: 'env', expression: 'namespaceObject.metadata.labels["env"]' },
        { name: 'want', expression: 'params.data.env' },
      ],
      validations: [
        { expression: 'variables.env == variables.want' },
        { expression: 'request.operation == "CREATE" && request.namespace == "ns-1"' },
      ],
    };
    const ok = run(spec, { params: { data: { env: 'prod' } } });
    expect(ok.decisions.map((d) => d.action)).toEqual(['admit', 'admit']);
    const bad = run(spec, { params: { data: { env: 'dev' } } });
    expect(bad.decisions.map((d) => d.action)).toEqual(['deny', 'admit']);
  });

  it('ends with one error when the runtime budget runs out', () => {
    // Each evaluation costs about 200,000 (under the per-call limit); 60 of them pass 10,000,000.
    const spec: PolicySpec = {
      validations: Array.from({ length: 60 }, () => ({ expression: '!object.s.matches("b")' })),
    };
    const object = { metadata: { name: 'big' }, s: 'a'.repeat(2_000_000) };
    expect(
      run({ validations: spec.validations!.slice(0, 40) }, { object }).decisions.every((d) => d.action === 'admit'),
    ).toBe(true);
    const result = run(spec, { object });
    expect(result.decisions).toEqual([
      {
        action: 'deny',
        evaluation: 'error',
        message: 'validation failed due to running out of cost budget, no further validation rules will be run',
        reason: '',
      },
    ]);
  });
});

describe('matchConditions', () => {
  const spec = (expression: string, failurePolicy = 'Fail'): PolicySpec => ({
    failurePolicy,
    matchConditions: [
      { name: 'first', expression },
      { name: 'second', expression: 'true' },
    ],
    validations: [{ expression: 'false' }],
  });

  it('skips the policy when one is false and evaluates it when all are true', () => {
    expect(run(spec('object.metadata.name == "other"')).decisions).toEqual([]);
    expect(run(spec('object.metadata.name == "cm-1"')).decisions.map((d) => d.action)).toEqual(['deny']);
  });

  it('refuses on an error under Fail and skips under Ignore', () => {
    expect(run(spec('object.nope == 1')).decisions).toEqual([
      {
        action: 'deny',
        evaluation: 'error',
        message: "expression 'object.nope == 1' resulted in error: no such key: nope",
        reason: '',
      },
    ]);
    expect(run(spec('object.nope == 1', 'Ignore')).decisions).toEqual([]);
  });
});

describe('auditAnnotations', () => {
  it('publishes strings, excludes empty and null, reports errors by failurePolicy', () => {
    const annotations = [
      { key: 'name', valueExpression: '" object name: " + object.metadata.name' },
      { key: 'empty', valueExpression: '""' },
      { key: 'none', valueExpression: 'null' },
      { key: 'broken', valueExpression: 'string(object.nope)' },
    ];
    const fail = run({ auditAnnotations: annotations }).auditAnnotations;
    expect(fail.map((a) => [a.key, a.action, a.value])).toEqual([
      ['name', 'publish', 'object name: cm-1'],
      ['empty', 'exclude', ''],
      ['none', 'exclude', ''],
      ['broken', 'error', ''],
    ]);
    expect(fail[3]!.error).toBe("expression 'string(object.nope)' resulted in error: no such key: nope");
    const ignore = run({ auditAnnotations: annotations, failurePolicy: 'Ignore' }).auditAnnotations;
    expect(ignore[3]!.action).toBe('exclude');
  });
});

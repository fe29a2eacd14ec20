// CRD-write validation of x-kubernetes-validations and upstream's e2e cases
// (test/e2e/apimachinery/crd_validation_rules.go, 7 cases) run at the package level: the CRD
// check (validateCrdValidationRules) and the custom-object check (CelValidator) a server runs.
import { describe, expect, it } from 'vitest';
import { toStructural } from '../crd-schema/structural.js';
import type { JSONSchemaProps } from '../crd-schema/types.js';
import { validateCrdValidationRules } from './crd-rules.js';
import { CelValidator } from './validator.js';

const ROOT = 'spec.versions[0].schema.openAPIV3Schema';
const lines = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`);

const e2eSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.x + self.y > 0' },
        {
          rule: 'self.firstArray.isSorted() && self.secondArray.isSorted() && ((self.firstArray.sum() + self.secondArray.sum()) % 2 == 0)',
        },
        { rule: 'self.largeArray.all(x, self.largeArray.all(y, y == x))' },
      ],
      properties: {
        x: { type: 'integer' },
        y: { type: 'integer' },
        firstArray: { type: 'array', maxItems: 1000, items: { type: 'integer' } },
        secondArray: { type: 'array', maxItems: 1000, items: { type: 'integer' } },
        largeArray: { type: 'array', maxItems: 725, items: { type: 'integer' } },
      },
    },
    status: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.health == 'ok' || self.health == 'unhealthy'" }],
      properties: { health: { type: 'string' } },
    },
  },
};

const cr = (spec: unknown) => ({ apiVersion: 'example.com/v1', kind: 'E2e', metadata: { name: 'cr-1' }, spec });

describe('upstream e2e crd_validation_rules.go', () => {
  it('the CRD with validation rules is accepted', () => {
    expect(lines(validateCrdValidationRules(e2eSchema, ROOT))).toEqual([]);
  });
  it('MUST NOT fail validation for create of a custom resource that satisfies the rules', () => {
    const r = new CelValidator(toStructural(e2eSchema)!).validate(
      cr({ x: 1, y: 0, firstArray: [3, 4], secondArray: [5, 10], largeArray: [2, 2] }),
    );
    expect(lines(r.errors)).toEqual([]);
  });
  it('MUST fail validation for create of a custom resource that does not satisfy the rules', () => {
    const r = new CelValidator(toStructural(e2eSchema)!).validate(cr({ x: 0, y: 0 }));
    expect(lines(r.errors)).toEqual([
      'spec: Invalid value: "object": failed rule: self.x + self.y > 0',
      'spec: Invalid value: "object": no such key: firstArray evaluating rule: self.firstArray.isSorted() && self.secondArray.isSorted() && ((self.firstArray.sum() + self.secondArray.sum()) % 2 == 0)',
      'spec: Invalid value: "object": no such key: largeArray evaluating rule: self.largeArray.all(x, self.largeArray.all(y, y == x))',
    ]);
  });
  it('MUST fail create of a CRD whose rule refers to a property that does not exist', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: 'self.z == 100' }],
          properties: { x: { type: 'integer' } },
        },
      },
    };
    expect(lines(validateCrdValidationRules(s, ROOT))).toEqual([
      `${ROOT}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.z == 100", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'z'\n | self.z == 100\n | ....^`,
    ]);
  });
  it('MUST fail create of a CRD whose rule contains a syntax error', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self = 42' }] } },
    };
    const errs = lines(validateCrdValidationRules(s, ROOT));
    expect(errs.length).toBe(1);
    expect(errs[0]).toContain(`${ROOT}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: `);
    expect(errs[0]).toContain('compilation failed: ERROR: <input>:1:');
    expect(errs[0]).toContain('Syntax error');
  });
  it('MUST fail create of a CRD whose rule exceeds the estimated cost limit', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            x: {
              type: 'array',
              items: {
                type: 'array',
                items: { type: 'string' },
                'x-kubernetes-validations': [{ rule: "self.all(s, s == 'string constant')" }],
              },
            },
          },
        },
      },
    };
    const errs = lines(validateCrdValidationRules(s, ROOT));
    expect(errs).toContain(
      `${ROOT}.properties[spec].properties[x].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    );
    expect(errs.at(-1)).toContain(
      `${ROOT}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of`,
    );
  });
  it('MUST fail create of a custom resource that exceeds the runtime cost limit', () => {
    const r = new CelValidator(toStructural(e2eSchema)!).validate(cr({ largeArray: Array(725).fill(20) }));
    expect(lines(r.errors)).toContain(
      'spec: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.largeArray.all(x, self.largeArray.all(y, y == x))',
    );
    expect(r.remainingBudget).toBe(-1);
  });
  it('MUST fail update of a custom resource that does not satisfy a transition rule', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { num: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > oldSelf' }] } },
        },
      },
    };
    expect(validateCrdValidationRules(s, ROOT)).toEqual([]);
    const v = new CelValidator(toStructural(s)!);
    expect(v.validate(cr({ num: 10 })).errors).toEqual([]);
    const r = v.validate(cr({ num: 9 }), { oldObj: cr({ num: 10 }) });
    expect(lines(r.errors)).toEqual(['spec.num: Invalid value: "integer": failed rule: self > oldSelf']);
  });
});

describe('rule fields checked at CRD write (upstream validation.go v0.33.0)', () => {
  const withRules = (rules: unknown[], extra: JSONSchemaProps = {}): JSONSchemaProps => ({
    type: 'object',
    properties: { a: { type: 'string' }, m: { type: 'object', additionalProperties: { type: 'string' } } },
    'x-kubernetes-validations': rules as JSONSchemaProps['x-kubernetes-validations'],
    ...extra,
  });
  const at = `${ROOT}.x-kubernetes-validations[0]`;
  it.each([
    [{ rule: ' ' }, `${at}.rule: Required value: rule is not specified`],
    [{ rule: 'true', message: ' ' }, `${at}.message: Invalid value: " ": message must be non-empty if specified`],
    [{ rule: 'true', message: 'a\nb' }, `${at}.message: Invalid value: "a\\nb": message must not contain line breaks`],
    [
      { rule: 'true &&\ntrue' },
      `${at}.message: Required value: message must be specified if rule contains line breaks`,
    ],
    [
      { rule: 'true', messageExpression: ' ' },
      `${at}.messageExpression: Required value: messageExpression must be non-empty if specified`,
    ],
    [
      { rule: 'true', reason: 'FieldValueNope' },
      `${at}.reason: Unsupported value: "FieldValueNope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
    [{ rule: 'true', fieldPath: '.b' }, `${at}.fieldPath: Invalid value: ".b": fieldPath must be a valid path`],
    [
      { rule: 'true', optionalOldSelf: true },
      `${at}.optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    ],
    [
      { rule: 'true', messageExpression: '42' },
      `${at}.messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"42", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string`,
    ],
    [
      { rule: 'self.a' },
      `${at}.rule: Invalid value: apiextensions.ValidationRule{Rule:"self.a", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool`,
    ],
  ])('%j', (rule, want) => {
    expect(lines(validateCrdValidationRules(withRules([rule]), ROOT))).toEqual([want]);
  });
  it('accepts a valid fieldPath and reason', () => {
    const rule = { rule: 'self.a != "x"', fieldPath: ".m['k.x']", reason: 'FieldValueForbidden' };
    expect(validateCrdValidationRules(withRules([rule]), ROOT)).toEqual([]);
  });
  it('refuses oldSelf under a list that is not a map list', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          maxItems: 10,
          items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
        },
      },
    };
    expect(lines(validateCrdValidationRules(s, ROOT))).toEqual([
      `${ROOT}.properties[l].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${ROOT}.properties[l]`,
    ]);
  });
  it('uses the compatibility environment for new rules and the stored one for existing rules', () => {
    const s = withRules([{ rule: "isSemver('1.0.0')" }]);
    expect(lines(validateCrdValidationRules(s, ROOT))[0]).toContain("undeclared reference to 'isSemver'");
    expect(validateCrdValidationRules(s, ROOT, { preexisting: new Set(["isSemver('1.0.0')"]) })).toEqual([]);
  });
});

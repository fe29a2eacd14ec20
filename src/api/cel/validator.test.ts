// The CEL validator behind validateCustomObject's node-validator seam: errors on create, transition
// rules only on update, ratcheting of unchanged invalid values, the per-object budget.
import { describe, expect, it } from 'vitest';
import { toStructural } from '../crd-schema/structural.js';
import type { JSONSchemaProps } from '../crd-schema/types.js';
import { validateCustomObject } from '../crd-schema/validate.js';
import { CelValidator } from './validator.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.min <= self.max', message: 'min must not exceed max' },
        { rule: 'self.max >= oldSelf.max', messageExpression: "'max went down from ' + string(oldSelf.max)" },
        { rule: "self.name.matches('^[a-z]+$')", fieldPath: '.name', reason: 'FieldValueForbidden' },
      ],
      properties: { min: { type: 'integer' }, max: { type: 'integer' }, name: { type: 'string', maxLength: 20 } },
    },
  },
};
const obj = (spec: Record<string, unknown>) => ({ apiVersion: 'x.io/v1', kind: 'X', metadata: { name: 'a' }, spec });
const lines = (errs: { field: string; message: string }[]) => errs.map((e) => `${e.field}: ${e.message}`);

describe('CelValidator through validateCustomObject', () => {
  const v = new CelValidator(toStructural(schema)!);
  it('reports failed rules on create with message, fieldPath and reason', () => {
    const errs = validateCustomObject(obj({ min: 3, max: 2, name: 'A1' }), schema, {
      nodeValidators: [v.nodeValidator()],
    });
    expect(lines(errs)).toEqual([
      'spec: Invalid value: "object": min must not exceed max',
      "spec.name: Forbidden: failed rule: self.name.matches('^[a-z]+$')",
    ]);
  });
  it('evaluates transition rules on update only, with messageExpression', () => {
    const errs = validateCustomObject(obj({ min: 1, max: 2, name: 'ok' }), schema, {
      oldObj: obj({ min: 1, max: 5, name: 'ok' }),
      nodeValidators: [v.nodeValidator()],
    });
    expect(lines(errs)).toEqual(['spec: Invalid value: "object": max went down from 5']);
  });
  it('ratchets an unchanged invalid value into a warning', () => {
    const warnings: string[] = [];
    const old = obj({ min: 3, max: 2, name: 'ok' });
    const errs = validateCustomObject(obj({ min: 3, max: 2, name: 'ok' }), schema, {
      oldObj: old,
      nodeValidators: [v.nodeValidator({}, warnings)],
    });
    expect(errs).toEqual([]);
    expect(warnings).toEqual(['spec: Invalid value: "object": min must not exceed max']);
  });
  it('stops when the per-object budget is spent', () => {
    const r = v.validate(obj({ min: 1, max: 2, name: 'ok' }), { budget: 5 });
    expect(lines(r.errors)).toEqual([
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
    expect(r.remainingBudget).toBe(-1);
  });
});

// The node-validator step of upstream's ValidateDefaults (apiextensions-apiserver 1.33
// pkg/apiserver/schema/defaulting/validation.go, where CEL `x-kubernetes-validations` run on each
// default): the cases "valid/invalid default with x-kubernetes-validations" of
// pkg/apis/apiextensions/validation/validation_test.go and TestDefaultValidationWithOptionalOldSelf
// of defaulting/validation_test.go. The rules are stood in for by JS predicates until the CEL
// engine exists; what is tested is which nodes, values, old values and paths reach the validators.
import { describe, expect, it } from 'vitest';
import { validateSchemaDefaults } from './defaults-validation.js';
import * as F from './defaults-validation.fixture.js';
import type { JSONSchemaProps } from './types.js';
import type { NodeValidator } from './validate.js';

const AT = 'spec.validation.openAPIV3Schema';
const p = (...names: string[]) => `${AT}${names.map((n) => `.properties[${n}]`).join('')}`;

/** Stand-ins for the CEL rules of these cases: (self, old value if any) -> whether the rule holds. */
const RULES: Record<string, (self: unknown, old: { has: boolean; value?: unknown }) => boolean> = {
  "self == 'singleton'": (self) => self === 'singleton',
  "self.startsWith('kube')": (self) => typeof self === 'string' && self.startsWith('kube'),
  'self.field1 < self.field2': (self) => {
    const o = self as { field1: number; field2: number };
    return o.field1 < o.field2;
  },
  'oldSelf.hasValue()': (_self, old) => old.has,
  'oldSelf.orValue(self) == self': (self, old) => (old.has ? old.value : self) === self,
};
const fakeCel: NodeValidator = (node) =>
  (node.schema.extensions?.xValidations ?? [])
    .filter((r) => !RULES[r.rule](node.value, { has: node.hasOldValue, value: node.oldValue }))
    .map((r) => ({ reason: 'FieldValueInvalid', field: node.path, message: r.message ?? `failed rule: ${r.rule}` }));

const celSchema = (defaults: [unknown, unknown, unknown]) =>
  F.obj({
    embedded: F.obj({
      metadata: F.embedded({
        name: F.str({ 'x-kubernetes-validations': [{ rule: "self == 'singleton'" }], default: defaults[0] }),
      }),
    }),
    value: F.str({ 'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }], default: defaults[1] }),
    object: F.obj(
      { field1: { type: 'integer' }, field2: { type: 'integer' } },
      { 'x-kubernetes-validations': [{ rule: 'self.field1 < self.field2' }], default: defaults[2] },
    ),
  });
const ratchetSchema = (rule: string) =>
  F.obj({
    defaultFailsRatcheting: F.str({
      default: 'default',
      'x-kubernetes-validations': [{ rule, optionalOldSelf: true, message: 'foobarErrorMessage' }],
    }),
  });

describe('validateSchemaDefaults: node validators (upstream CEL step on defaults)', () => {
  const run = (schema: JSONSchemaProps) =>
    validateSchemaDefaults(schema, AT, true, { nodeValidators: [fakeCel] }).map((e) => `${e.field}: ${e.message}`);

  it.each([
    {
      name: 'valid default with x-kubernetes-validations',
      schema: celSchema(['singleton', 'kube-everything', { field1: 1, field2: 2 }]),
      errors: [],
    },
    {
      name: 'invalid default with x-kubernetes-validations',
      schema: celSchema(['nope', 'nope', { field1: 2, field2: 1 }]),
      errors: [
        `${p('embedded', 'metadata', 'name')}.default: failed rule: self == 'singleton'`,
        `${p('object')}.default: failed rule: self.field1 < self.field2`,
        `${p('value')}.default: failed rule: self.startsWith('kube')`,
      ],
    },
    // TestDefaultValidationWithOptionalOldSelf: a default must also pass as a create (no old value)
    {
      name: 'optionalOldSelf: invalid default',
      schema: ratchetSchema('oldSelf.hasValue()'),
      errors: [`${p('defaultFailsRatcheting')}.default: foobarErrorMessage`],
    },
    { name: 'optionalOldSelf: valid default', schema: ratchetSchema('oldSelf.orValue(self) == self'), errors: [] },
    {
      name: 'rules do not run on a default the schema already refuses',
      schema: F.obj({
        v: { type: 'integer', 'x-kubernetes-validations': [{ rule: "self.startsWith('kube')" }], default: 'nope' },
      }),
      errors: [`${p('v')}.default: Invalid value: "string":  in body must be of type integer: "string"`],
    },
  ])('$name', ({ schema, errors }) => {
    expect(run(schema).sort()).toEqual(errors);
  });
});

/**
 * Test support: the schema generators of upstream's TestCostEstimation (compilation_test.go,
 * v0.33.0): each takes a rule (and an item type) and returns a function of the max size
 * (maxItems, maxProperties or maxLength; null for none) giving a Go-shaped schema.
 */
type Go = Record<string, unknown>;

const rules = (rule: string) => ({ ValidationExtensions: { XValidations: [{ Rule: rule }] } });

/** Upstream parseRuleType: duration/date/date-time are string formats, int-or-string has no type. */
function ruleType(t: string): Go {
  if (t === 'duration' || t === 'date' || t === 'date-time')
    return { Generic: { Type: 'string' }, ValueValidation: { Format: t } };
  if (t === 'int-or-string') return { Extensions: { XIntOrString: true } };
  return { Generic: { Type: t } };
}

/** Item schemas of the map cases. */
export const ITEM_SCHEMAS: Record<string, () => Go> = {
  genObjectForMap: () => ({
    Generic: { Type: 'object' },
    Properties: { required: { Generic: { Type: 'string' } }, optional: { Generic: { Type: 'string' } } },
    ValueValidation: { Required: ['required'] },
  }),
  genArrayForMap: () => ({ Generic: { Type: 'array' }, Items: { Generic: { Type: 'number' } } }),
  genMapForMap: () => ({
    Generic: { Type: 'object' },
    AdditionalProperties: { Structural: { Generic: { Type: 'number' } } },
  }),
};

/** The generators by name. */
export const GENERATORS: Record<string, (...a: never[]) => (max: number | null) => Go> = {
  genArrayWithRule: (t: string, rule: string) => (max) => ({
    Generic: { Type: 'array' },
    Items: ruleType(t),
    ValueValidation: { MaxItems: max },
    ...rules(rule),
  }),
  genArrayOfArraysWithRule: (t: string, rule: string) => (max) => ({
    Generic: { Type: 'array' },
    Items: { Generic: { Type: 'array' }, Items: { Generic: { Type: t } } },
    ValueValidation: { MaxItems: max },
    ...rules(rule),
  }),
  genObjectArrayWithRule: (rule: string) => (max) => ({
    Generic: { Type: 'array' },
    Items: {
      Generic: { Type: 'object' },
      Properties: { required: { Generic: { Type: 'string' } }, optional: { Generic: { Type: 'string' } } },
      ValueValidation: { Required: ['required'] },
    },
    ValueValidation: { MaxItems: max },
    ...rules(rule),
  }),
  getMapArrayWithRule: (t: string, rule: string) => (max) => ({
    Generic: { Type: 'array' },
    Items: { Generic: { Type: 'object' }, AdditionalProperties: { Structural: { Generic: { Type: t } } } },
    ValueValidation: { MaxItems: max },
    ...rules(rule),
  }),
  genMapWithRule: (t: string, rule: string) => (max) => ({
    Generic: { Type: 'object' },
    AdditionalProperties: { Structural: ruleType(t) },
    ValueValidation: { MaxProperties: max },
    ...rules(rule),
  }),
  genMapWithCustomItemRule: (item: Go, rule: string) => (max) => ({
    Generic: { Type: 'object' },
    AdditionalProperties: { Structural: item },
    ValueValidation: { MaxProperties: max },
    ...rules(rule),
  }),
  genStringWithRule: (rule: string) => (max) => ({
    Generic: { Type: 'string' },
    ValueValidation: { MaxLength: max },
    ...rules(rule),
  }),
  genBytesWithRule: (rule: string) => (max) => ({
    Generic: { Type: 'string' },
    ValueValidation: { MaxLength: max, Format: 'byte' },
    ...rules(rule),
  }),
  genEnumWithRuleAndValues:
    (rule: string, ...values: string[]) =>
    (max) => ({
      Generic: { Type: 'string' },
      ValueValidation: { MaxLength: max, Enum: values.map((v) => ({ Object: v })) },
      ...rules(rule),
    }),
  genNestedSpecWithRule: (rule: string) => (max) => ({
    Generic: { Type: 'object' },
    AdditionalProperties: { Structural: { Generic: { Type: 'string' }, ValueValidation: { MaxLength: max } } },
    ValueValidation: { MaxProperties: max },
    ...rules(rule),
  }),
};

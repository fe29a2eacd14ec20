/**
 * kube-openapi's validation results and errors (pkg/validation/validate/result.go,
 * pkg/validation/errors/schema.go, validate/schema_messages.go), and their translation into the
 * field errors a 422 carries (apiextensions-apiserver pkg/apiserver/validation/validation.go
 * kubeOpenAPIResultToFieldErrors, with 1.33's field.Error wording).
 */
import type { FieldError } from '../validation/field-errors.js';
import { fieldPath, goBadValue, goJson, goQuote } from './go-format.js';

/** Which check failed (kube-openapi's error codes); `composite` is a junctor's message (no field). */
export type OpenAPICode =
  | 'type'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive'
  | 'composite';

/** One kube-openapi error: its code, the path it names (`spec.x`), its value and its message. */
export interface OpenAPIError {
  code: OpenAPICode;
  name: string;
  message: string;
  /** The bad value (undefined = Go's nil). */
  value?: unknown;
  /** Enum: the allowed values. */
  values?: unknown[];
  /** Limits: the bound (maxLength, maxItems, maxProperties). */
  valid?: number;
}

/** A validation result: errors (unique by message, as upstream's AddErrors keeps them) and the match count. */
export class Result {
  errors: OpenAPIError[] = [];
  matchCount = 0;

  static of(err: OpenAPIError): Result {
    const r = new Result();
    r.errors.push(err);
    return r;
  }

  addErrors(...errs: OpenAPIError[]): void {
    for (const e of errs) if (!this.errors.some((x) => x.message === e.message)) this.errors.push(e);
  }

  merge(...others: (Result | undefined)[]): this {
    for (const o of others) {
      if (!o) continue;
      this.addErrors(...o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): void {
    this.matchCount++;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

const IN = 'body';

/** Constructors worded as kube-openapi's errors package (the `in` is always `body`). */
export const openapiErrors = {
  invalidType: (name: string, typeName: string, value: unknown): OpenAPIError => ({
    code: 'type',
    name,
    value,
    message:
      typeof value === 'string'
        ? `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`
        : `${name} in ${IN} must be of type ${typeName}`,
  }),
  required: (name: string): OpenAPIError => ({ code: 'required', name, message: `${name} in ${IN} is required` }),
  tooLong: (name: string, max: number, value: unknown): OpenAPIError => ({
    code: 'tooLong',
    name,
    value,
    valid: max,
    message: `${name} in ${IN} should be at most ${max} chars long`,
  }),
  tooShort: (name: string, min: number, value: unknown): OpenAPIError => ({
    code: 'tooShort',
    name,
    value,
    message: `${name} in ${IN} should be at least ${min} chars long`,
  }),
  failedPattern: (name: string, pattern: string, value: unknown): OpenAPIError => ({
    code: 'pattern',
    name,
    value,
    message: `${name} in ${IN} should match '${pattern}'`,
  }),
  enumFail: (name: string, value: unknown, values: unknown[]): OpenAPIError => ({
    code: 'enum',
    name,
    value,
    values,
    message: `${name} in ${IN} should be one of ${JSON.stringify(values)}`,
  }),
  notMultipleOf: (name: string, factor: string, value: unknown): OpenAPIError => ({
    code: 'multipleOf',
    name,
    value,
    message: `${name} in ${IN} should be a multiple of ${factor}`,
  }),
  multipleOfMustBePositive: (name: string, factor: string, value: number): OpenAPIError => ({
    code: 'multipleOfMustBePositive',
    name,
    value,
    message: `factor MultipleOf declared for ${name} must be positive: ${factor}`,
  }),
  exceedsMaximum: (name: string, max: string, exclusive: boolean, value: unknown): OpenAPIError => ({
    code: 'max',
    name,
    value,
    message: `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${max}`,
  }),
  exceedsMinimum: (name: string, min: string, exclusive: boolean, value: unknown): OpenAPIError => ({
    code: 'min',
    name,
    value,
    message: `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${min}`,
  }),
  duplicateItems: (name: string): OpenAPIError => ({
    code: 'unique',
    name,
    message: `${name} in ${IN} shouldn't contain duplicates`,
  }),
  tooManyItems: (name: string, max: number, size: number): OpenAPIError => ({
    code: 'maxItems',
    name,
    value: size,
    valid: max,
    message: `${name} in ${IN} should have at most ${max} items`,
  }),
  tooFewItems: (name: string, min: number, size: number): OpenAPIError => ({
    code: 'minItems',
    name,
    value: size,
    message: `${name} in ${IN} should have at least ${min} items`,
  }),
  tooFewProperties: (name: string, min: number, n: number): OpenAPIError => ({
    code: 'tooFewProperties',
    name,
    value: n,
    message: `${name} in ${IN} should have at least ${min} properties`,
  }),
  tooManyProperties: (name: string, max: number, n: number): OpenAPIError => ({
    code: 'tooManyProperties',
    name,
    value: n,
    valid: max,
    message: `${name} in ${IN} should have at most ${max} properties`,
  }),
  propertyNotAllowed: (name: string, key: string): OpenAPIError => ({
    code: 'unallowedProperty',
    name,
    value: key,
    message: `${name}.${key} in ${IN} is a forbidden property`,
  }),
  composite: (message: string): OpenAPIError => ({ code: 'composite', name: '', message }),
};

/**
 * Field errors of a result, as upstream's kubeOpenAPIResultToFieldErrors: `prefix` is the field
 * path validation started at ('' = upstream's nil path, printed `<nil>` for errors without a
 * field of their own, e.g. `<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)`).
 */
export function toFieldErrors(result: Result, prefix = ''): FieldError[] {
  const root = prefix || '<nil>';
  return result.errors.map((err): FieldError => {
    if (err.code === 'composite') return invalid(root, '', err.message);
    const name = err.name.replace(/^\./, '');
    const field = err.name && err.name !== '.' ? fieldPath.child(prefix, name) : root;
    const value = err.value === undefined ? '' : err.value;
    switch (err.code) {
      case 'required':
        return { reason: 'FieldValueRequired', field, message: 'Required value' };
      case 'enum': {
        const values = (err.values ?? []).map((v) => goQuote(typeof v === 'string' ? v : goJson(v)));
        const detail = values.length ? `: supported values: ${values.join(', ')}` : '';
        return {
          reason: 'FieldValueNotSupported',
          field,
          message: `Unsupported value: ${goBadValue(err.value)}${detail}`,
        };
      }
      case 'tooLong': {
        const max = err.valid ?? -1;
        const detail = max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
        return { reason: 'FieldValueTooLong', field, message: `Too long: ${detail}` };
      }
      case 'maxItems':
      case 'tooManyProperties': {
        const max = err.valid ?? -1;
        const actual = typeof err.value === 'number' ? err.value : -1;
        const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
        return {
          reason: 'FieldValueTooMany',
          field,
          message: `Too many: ${actual >= 0 ? `${actual}: ` : ''}${detail}`,
        };
      }
      case 'type':
        return {
          reason: 'FieldValueTypeInvalid',
          field,
          message: `Invalid value: ${goBadValue(value)}: ${err.message}`,
        };
      default:
        return invalid(field, value, err.message);
    }
  });
}

const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${goBadValue(value)}: ${detail}`,
});

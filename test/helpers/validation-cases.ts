/**
 * One-case-per-rule validation suites (test/integration/validation-*.test.ts): each case sends
 * a request upstream refuses and expects 422 Invalid with upstream's cause {field, reason,
 * message} among the causes; `accepted` requests are valid neighbours that must succeed.
 */
import { describe, expect, it } from 'vitest';
import type { TestServer } from './in-process.js';

export type Cause = { field: string; reason: string; message: string };
export type Call = [method: string, path: string, body?: unknown, headers?: Record<string, string>];

export interface ValidationCase {
  readonly rule: string;
  /** Requests run first, each expected to succeed (an object to update, ...). */
  readonly setup?: readonly Call[];
  readonly call: Call;
  readonly cause: Cause;
}

export const invalid = (field: string, message: string): Cause => ({ field, reason: 'FieldValueInvalid', message });
/** `Invalid value: <printed>: <detail>`. */
export const invalidValue = (field: string, printed: string, detail: string): Cause =>
  invalid(field, `Invalid value: ${printed}: ${detail}`);
export const required = (field: string, detail = ''): Cause => ({
  field,
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
});
export const forbidden = (field: string, detail: string): Cause => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
});
export const unsupported = (field: string, value: string, values: readonly string[]): Cause => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
});
export const duplicate = (field: string, message: string): Cause => ({ field, reason: 'FieldValueDuplicate', message });
export const tooMany = (field: string, actual: number, max: number): Cause => ({
  field,
  reason: 'FieldValueTooMany',
  message: `Too many: ${actual}: must have at most ${max} items`,
});
/** `Invalid value: <value>: field is immutable`, the value as the server prints it (a string quoted). */
export const immutable = (field: string, printed: string): Cause =>
  invalid(field, `Invalid value: ${printed}: field is immutable`);
export const merge = { 'content-type': 'application/merge-patch+json' };

/** The 422 causes of a response as {field, reason, message}. */
function causesOf(body: any): Cause[] {
  return (body?.details?.causes ?? []).map((x: Partial<Cause>) => ({
    field: x.field ?? '',
    reason: x.reason ?? '',
    message: x.message ?? '',
  }));
}

/** Register `cases` (one test each) and, when given, a test that `accepted` all succeed. */
export function validationSuite(
  title: string,
  srv: () => TestServer,
  cases: readonly ValidationCase[],
  accepted: readonly Call[] = [],
): void {
  describe(title, () => {
    it.each(cases.map((c) => [c.rule, c] as const))('%s', async (_rule, c) => {
      for (const [method, path, body, headers] of c.setup ?? []) {
        const res = await srv().api(method, path, body, headers);
        expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      }
      const [method, path, body, headers] = c.call;
      const res = await srv().api(method, path, body, headers);
      expect(res.status, res.text).toBe(422);
      expect(res.body.reason).toBe('Invalid');
      expect(causesOf(res.body)).toContainEqual(c.cause);
    });

    if (accepted.length)
      it('accepts the valid neighbours of these rules', async () => {
        for (const [method, path, body, headers] of accepted) {
          const res = await srv().api(method, path, body, headers);
          expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
        }
      });
  });
}

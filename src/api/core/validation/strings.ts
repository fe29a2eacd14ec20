/**
 * String rules of upstream 1.10 k8s.io/apimachinery pkg/util/validation (validation.go) that
 * pod specs use beyond those in api/names.ts, and the helpers that turn a rule's messages into
 * field errors (pkg/apis/core/validation ValidateDNS1123Label, ValidateDNS1123Subdomain,
 * unversioned ValidateLabels / ValidateLabelName). Each validator returns messages (empty = valid).
 */
import {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '../../names.js';
import { invalidValue, type FieldError } from '../../validation/field-errors.js';
import { recordOf } from '../../json.js';

/**
 * The fields of an object the rules read, not trusted to have their schema's types: each is
 * `unknown` until narrowed (str, items, isSet, typeof).
 */
export type Fields = Readonly<Record<string, unknown>>;

/** `v` as a list of objects (absent or null = empty; a non-object item = an empty object). */
export const items = (v: unknown): Fields[] => (Array.isArray(v) ? v.map(fieldsOf) : []);

/** `v`'s fields when it is an object, else none (an empty object). */
export const fieldsOf = (v: unknown): Fields => (v && typeof v === 'object' ? recordOf(v) : {});

/** `v` as a list (absent, null or not a list = empty). */
export const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** Whether `v` is a set (not undefined/null) value, as a Go pointer is non-nil. */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** A string field as Go sees it: absent = "". */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** upstream RegexError: the message, examples and the regular expression. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (!examples.length) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** upstream InclusiveRangeError. */
export const inclusiveRange = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** upstream isNegativeErrorMsg. */
export const IS_NEGATIVE = 'must be greater than or equal to 0';

const MAX_INT32 = 2147483647;

/** hasChDirPrefix: `.`, `..` or a `..` prefix. */
function chDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const ENV_VAR_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
/** IsEnvVarName (1.10: letters, digits, '_', '-', '.', not starting with a digit). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${ENV_VAR_FMT}$`).test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        ENV_VAR_FMT,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  return [...errs, ...chDirPrefix(value)];
}

const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
/** IsConfigMapKey. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!new RegExp(`^${CONFIG_KEY_FMT}$`).test(value)) {
    errs.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        CONFIG_KEY_FMT,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  }
  return [...errs, ...chDirPrefix(value)];
}

/** Port name and number rules, shared with the Service and Endpoints rules. */
export { isValidPortName, isValidPortNum } from '../../validation/network.js';

/** IsValidUserID / IsValidGroupID. */
export const isValidId = (id: number): string[] => (id >= 0 && id <= MAX_INT32 ? [] : [inclusiveRange(0, MAX_INT32)]);

const HTTP_HEADER_FMT = '[-A-Za-z0-9]+';
/** IsHTTPHeaderName. */
export function isHttpHeaderName(value: string): string[] {
  return new RegExp(`^${HTTP_HEADER_FMT}$`).test(value)
    ? []
    : [
        regexError(
          "a valid HTTP header must consist of alphanumeric characters or '-'",
          HTTP_HEADER_FMT,
          'X-Header-Name',
        ),
      ];
}

const QUALIFIED_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
/**
 * IsQualifiedName as upstream: an empty name part gets both "must be non-empty" and the
 * regular-expression message (api/names.ts reports only the first).
 */
export function isQualifiedName(value: string): string[] {
  const errs = validateQualifiedName(value);
  const parts = value.split('/');
  if (parts.length <= 2 && parts[parts.length - 1] === '') {
    errs.push(
      `name part ${regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QUALIFIED_FMT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

/** An IP address as Go's net.ParseIP reads it (dotted IPv4 or IPv6). */
export function isIp(value: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  if (v4) return v4.slice(1).every((p) => Number(p) <= 255);
  if (!value.includes(':') || !/^[0-9a-fA-F:.]+$/.test(value)) return false;
  const tail = value.lastIndexOf(':');
  const v6 = value.slice(tail + 1).includes('.') ? `${value.slice(0, tail + 1)}0:0` : value;
  if (v6.includes('.')) return false;
  const doubles = v6.split('::').length - 1;
  if (doubles > 1) return false;
  const groups = v6.split(':').filter((g, i, a) => !(g === '' && (doubles === 1 || i === 0 || i === a.length - 1)));
  if (groups.some((g) => g.length > 4 || g === '')) return false;
  return doubles === 1 ? groups.length < 8 : groups.length === 8;
}

/** One Invalid error per message of `rule` for `value` at `field`. */
export function invalidEach(field: string, value: unknown, messages: string[]): FieldError[] {
  return messages.map((m) => invalidValue(field, value, m));
}

/** ValidateDNS1123Label. */
export const dns1123Label = (value: string, field: string): FieldError[] =>
  invalidEach(field, value, validateDns1123Label(value));

/** ValidateDNS1123Subdomain (also NameIsDNSSubdomain with prefix=false). */
export const dns1123Subdomain = (value: string, field: string): FieldError[] =>
  invalidEach(field, value, validateDns1123Subdomain(value));

/** NameIsDNSSubdomain with prefix=true: a trailing '-' is allowed (generateName-like names). */
export const dns1123SubdomainPrefix = (value: string, field: string): FieldError[] =>
  invalidEach(field, value, validateDns1123Subdomain(value.endsWith('-') ? `${value.slice(0, -1)}a` : value));

/** ValidateLabelName. */
export const labelName = (value: string, field: string): FieldError[] =>
  invalidEach(field, value, isQualifiedName(value));

/** unversioned ValidateLabels: keys and values, reported on the map's own field. */
export function labels(map: unknown, field: string): FieldError[] {
  if (!map || typeof map !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(map)) {
    errs.push(...labelName(k, field), ...invalidEach(field, v, validateLabelValue(str(v))));
  }
  return errs;
}

/** ValidateAnnotations' key rule (the total size limit is checked with metadata). */
export function annotationKeys(map: unknown, field: string): FieldError[] {
  if (!map || typeof map !== 'object') return [];
  return Object.keys(map).flatMap((k) => invalidEach(field, k, isQualifiedName(k.toLowerCase())));
}

/** ValidateNonnegativeField. */
export const nonNegative = (value: unknown, field: string): FieldError[] =>
  typeof value === 'number' && value < 0 ? [invalidValue(field, value, IS_NEGATIVE)] : [];

/** Go's %#v of a map[string]string: keys sorted. */
export function goStringMap(map: Record<string, unknown> | undefined | null): string {
  const entries = Object.keys(map ?? {})
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(map?.[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** A field error whose value is a []string, printed as Go's %#v (`[]string{"a", "b"}`). */
export function invalidStrings(field: string, values: unknown[], detail: string): FieldError {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: `Invalid value: []string{${values.map((v) => JSON.stringify(String(v))).join(', ')}}: ${detail}`,
  };
}

/**
 * The Kubernetes format library (k8s.io/apiserver pkg/cel/library/format.go, 1.31+):
 * `format.<name>()` and `format.named(name)` give a format whose `validate(s)` returns
 * `optional.none()` when `s` is valid, else `optional.of([...messages])`. Formats here:
 * dns1123Label, dns1123Subdomain, dns1035Label, qualifiedName, labelValue, uuid, byte, date,
 * datetime and the `...Prefix` forms of the DNS names (a trailing `-` allowed).
 */
import {
  validateDns1035Label,
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '../names.js';
import { type Overload, global, member } from './functions.js';
import { parseTimestamp } from './to-value.js';
import { STRING, listOf, opaque, optionalOf } from './types.js';
import { CelErr, CelOpaque, CelOptional } from './values.js';

/** A named format. */
export class FormatValue extends CelOpaque {
  readonly typeName = 'kubernetes.NamedFormat';
  constructor(
    readonly name: string,
    readonly check: (s: string) => string[],
  ) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof FormatValue && o.name === this.name;
  }
}

const prefix = (f: (s: string) => string[]) => (s: string) => f(s.replace(/-+$/, '') || 'a');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: validateDns1123Label,
  dns1123Subdomain: validateDns1123Subdomain,
  dns1035Label: validateDns1035Label,
  qualifiedName: validateQualifiedName,
  labelValue: validateLabelValue,
  dns1123LabelPrefix: prefix(validateDns1123Label),
  dns1123SubdomainPrefix: (s) => validateDns1123Subdomain(s.replace(/[-.]+$/, '') || 'a'),
  dns1035LabelPrefix: prefix(validateDns1035Label),
  uri: (s) => (/^[A-Za-z][A-Za-z0-9+.-]*:\S*$|^\/\S*$/.test(s) ? [] : ['invalid URI']),
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0 ? [] : ['invalid base64']),
  date: (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) && !(parseTimestamp(s) instanceof CelErr) ? [] : ['invalid date']),
  datetime: (s) => (s.includes('T') && !(parseTimestamp(s) instanceof CelErr) ? [] : ['invalid datetime']),
};

const FORMAT_T = opaque('kubernetes.NamedFormat');

/** The format library's overloads. */
export const FORMAT: readonly Overload[] = [
  ...Object.entries(FORMATS).map(([name, f]) =>
    global(`format.${name}`, `format_${name}`, [], FORMAT_T, () => new FormatValue(name, f)),
  ),
  global('format.named', 'format-named', [STRING], optionalOf(FORMAT_T), (name: string) => {
    const f = FORMATS[name];
    return new CelOptional(f ? new FormatValue(name, f) : undefined);
  }),
  member('validate', 'format-validate', [FORMAT_T, STRING], optionalOf(listOf(STRING)), (f: FormatValue, s: string) => {
    const errs = f.check(s);
    return new CelOptional(errs.length ? errs : undefined);
  }),
];

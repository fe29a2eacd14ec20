/**
 * The string formats a CRD schema may check, as upstream 1.33 does: the formats apiextensions
 * keeps (pkg/apiserver/validation/formats.go; any other `format` is ignored) with the checks of
 * kube-openapi pkg/validation/strfmt (default.go, time.go, date.go, duration.go, bson.go) and
 * the govalidator functions they call. Names are normalized as go-openapi does (`date-time` ->
 * `datetime`).
 */
import { parseIP } from '../validation/network.js';

/** Upstream's format name normalization (dashes removed). */
export const normalizeFormat = (name: string): string => name.replace(/-/g, '');

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const HEXCOLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const BYTE = '(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])';
const RGBCOLOR = new RegExp(`^rgb\\(\\s*${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${BYTE}\\s*\\)$`);
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const ISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13 = /^(?:[0-9]{13})$/;
const CREDITCARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const DATETIME_TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const MAC = [
  /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{2}[:-]){7}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{2}[:-]){19}[0-9a-fA-F]{2}$/,
  /^([0-9a-fA-F]{4}\.){2}[0-9a-fA-F]{4}$/,
  /^([0-9a-fA-F]{4}\.){3}[0-9a-fA-F]{4}$/,
  /^([0-9a-fA-F]{4}\.){9}[0-9a-fA-F]{4}$/,
];
const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'ms', 's', 'm', 'h', 'd', 'w']);

/** Go's net.ParseIP of 1.17+ (no leading zeros in IPv4 parts). */
function goParseIP(s: string): boolean {
  const dotted = s.slice(s.lastIndexOf(':') + 1);
  if (dotted.includes('.') && dotted.split('.').some((part) => /^0\d/.test(part))) return false;
  return parseIP(s) !== null;
}

/** time.Parse("2006-01-02", s): a real calendar date. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}

/** strfmt.IsDateTime: a date, `t`, then hh:mm:ss[.frac](z|±hh:mm), case-insensitive. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = DATETIME_TIME.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

/** strfmt.ParseDuration: Go's time.ParseDuration, or `<n> <unit>` with d and w units. */
function isDuration(s: string): boolean {
  if (/^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s) || s === '0') return true;
  const m = /^(\d+)\s*([A-Za-zµ]+)$/.exec(s.trim());
  if (m)
    return (
      DURATION_UNITS.has(m[2]) ||
      DURATION_UNITS.has(m[2].replace(/s$/, '')) ||
      /^(nanosecond|microsecond|millisecond|second|minute|hour|day|week)s?$/.test(m[2])
    );
  return false;
}

function isISBN(s: string, version: 10 | 13): boolean {
  const sanitized = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!ISBN10.test(sanitized)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(sanitized[i]);
    sum += sanitized[9] === 'X' ? 100 : 10 * Number(sanitized[9]);
    return sum % 11 === 0;
  }
  if (!ISBN13.test(sanitized)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(sanitized[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(sanitized[12]);
}

function isCreditCard(s: string): boolean {
  const sanitized = s.replace(/[^0-9]+/g, '');
  if (!CREDITCARD.test(sanitized)) return false;
  let sum = 0;
  let shouldDouble = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let d = Number(sanitized[i]);
    if (shouldDouble) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    shouldDouble = !shouldDouble;
  }
  return sum % 10 === 0;
}

/** url.ParseRequestURI: an absolute URI or an absolute path; no control characters, no spaces in the host. */
function isRequestURI(s: string): boolean {
  if (s === '' || [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return false;
  if (s.startsWith('/')) return true;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/.exec(s);
  if (!m) return false;
  const rest = m[2];
  if (!rest.startsWith('//')) return rest.startsWith('/') || rest.length > 0;
  const authority = rest.slice(2).split(/[/?#]/)[0];
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return /^\[[0-9A-Fa-f:.]+(%[^\]]+)?\](:\d*)?$/.test(host);
  return /^[^:]*(:\d*)?$/.test(host) && !/[\s<>"{}|\\^`]/.test(host);
}

/** net/mail.ParseAddress, simplified: `local@domain`, optionally `Name <local@domain>`. */
function isEmail(s: string): boolean {
  const m = /^(?:[^<>]*<([^<>]+)>|([^<>\s]+))$/.exec(s.trim());
  const addr = m?.[1] ?? m?.[2];
  if (!addr) return false;
  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return false;
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  const atom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/u;
  const quoted = /^"([^"\\]|\\.)*"$/;
  return (atom.test(local) || quoted.test(local)) && (atom.test(domain) || /^\[[^\]]*\]$/.test(domain));
}

const CHECKS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: (s) => HOSTNAME.test(s) && s.length <= 255 && s.split('.').every((p) => utf8Length(p) <= 63),
  ipv4: (s) => goParseIP(s) && s.includes('.'),
  ipv6: (s) => goParseIP(s) && s.includes(':'),
  cidr: (s) => {
    const [ip, bits, extra] = s.split('/');
    if (extra !== undefined || bits === undefined || !/^\d+$/.test(bits) || !goParseIP(ip)) return false;
    return Number(bits) <= (ip.includes(':') ? 128 : 32);
  },
  mac: (s) => MAC.some((re) => re.test(s)) && !(/[:]/.test(s) && /-/.test(s)),
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && SSN.test(s),
  hexcolor: (s) => HEXCOLOR.test(s),
  rgbcolor: (s) => RGBCOLOR.test(s),
  byte: (s) => BASE64.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** Whether `format` is one CRD schemas check (after normalization); others are ignored. */
export const isSupportedFormat = (format: string): boolean => normalizeFormat(format) in CHECKS;

/** Whether `value` is valid for the supported `format`. */
export const checkFormat = (format: string, value: string): boolean => CHECKS[normalizeFormat(format)]?.(value) ?? true;

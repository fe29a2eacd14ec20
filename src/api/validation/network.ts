/**
 * Address and port rules of upstream k8s.io/apimachinery pkg/util/validation (IsValidIP,
 * IsValidPortNum, IsValidPortName) and pkg/apis/core/validation (validateNonSpecialIP), with
 * IPs parsed as Go's net.ParseIP / net.ParseCIDR of the 1.10 era accept them (dotted IPv4,
 * IPv6 with `::` and a trailing dotted quad, no zone).
 */
import { invalidValue, type FieldError } from './field-errors.js';

/** The 16 bytes of an address as Go's net.ParseIP returns it (IPv4 as ::ffff:a.b.c.d), or null. */
export function parseIP(text: string): number[] | null {
  if (typeof text !== 'string' || text.length === 0) return null;
  const v4 = parseIPv4(text);
  if (v4) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4];
  return parseIPv6(text);
}

function parseIPv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,8}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIPv6(text: string): number[] | null {
  if (!/^[0-9A-Fa-f:.]+$/.test(text)) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (const [i, p] of parts.entries()) {
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return null;
        out.push(...v4);
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(p)) return null;
        const n = parseInt(p, 16);
        out.push(n >> 8, n & 0xff);
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  if (!head) return null;
  if (halves.length === 1) return head.length === 16 ? head : null;
  const tail = groups(halves[1]);
  if (!tail || head.length + tail.length > 14) return null;
  // An embedded IPv4 may only end the address.
  if (halves[0].includes('.')) return null;
  return [...head, ...new Array(16 - head.length - tail.length).fill(0), ...tail];
}

const isV4 = (ip: number[]) => ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;

/** Go net.ParseCIDR: `address/bits`, bits at most 32 (IPv4) or 128 (IPv6). */
export function isCIDR(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const addr = text.slice(0, slash);
  const bits = text.slice(slash + 1);
  const v4 = parseIPv4(addr);
  const ip = v4 ? v4 : parseIPv6(addr);
  if (!ip || !/^[0-9]+$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

/** Upstream IsValidIP's messages. */
export function isValidIP(value: string): string[] {
  return parseIP(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7)'];
}

/**
 * Upstream validateNonSpecialIP: endpoints and external IPs may not be unspecified, loopback,
 * link-local or link-local multicast.
 */
export function validateNonSpecialIP(value: string, field: string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [invalidValue(field, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  const v4 = isV4(ip);
  const [a, b, c] = v4 ? ip.slice(12) : [ip[0], ip[1], ip[2]];
  const allZero = (v4 ? ip.slice(12) : ip).every((x) => x === 0);
  if (allZero) errs.push(invalidValue(field, value, 'may not be unspecified (0.0.0.0)'));
  const loopback = v4 ? a === 127 : ip.slice(0, 15).every((x) => x === 0) && ip[15] === 1;
  if (loopback) errs.push(invalidValue(field, value, 'may not be in the loopback range (127.0.0.0/8)'));
  const linkLocal = v4 ? a === 169 && b === 254 : a === 0xfe && (b & 0xc0) === 0x80;
  if (linkLocal) errs.push(invalidValue(field, value, 'may not be in the link-local range (169.254.0.0/16)'));
  const linkLocalMulticast = v4 ? a === 224 && b === 0 && c === 0 : a === 0xff && (b & 0x0f) === 0x02;
  if (linkLocalMulticast)
    errs.push(invalidValue(field, value, 'may not be in the link-local multicast range (224.0.0.0/24)'));
  return errs;
}

/** Upstream IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

/** Upstream IsValidPortName (an IANA_SVC_NAME): at most 15 of [-a-z0-9], a letter, no `--`, no edge `-`. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter or number (a-z, 0-9)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** Upstream ValidatePortNumOrName: a number in range or an IANA port name. */
export function validatePortNumOrName(port: number | string, field: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalidValue(field, port, m));
  return isValidPortName(port).map((m) => invalidValue(field, port, m));
}

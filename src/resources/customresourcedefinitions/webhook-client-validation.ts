/**
 * A conversion webhook's client configuration (k8s.io/apiserver pkg/util/webhook validation.go,
 * 1.33: ValidateWebhookURL with https forced, ValidateWebhookService, ValidateCABundle, whose
 * error comes from client-go's transport: `unable to load root certificates: unable to parse
 * bytes as PEM block`, `... failed to parse certificate: ...`, `... no valid certificate
 * authority data seen`). The URL is split as Go's url.Parse splits it.
 */
import { X509Certificate } from 'node:crypto';
import { validateDns1123Subdomain } from '../../api/names.js';
import { isValidPortNum } from '../../api/validation/network.js';
import { invalidGo } from '../../api/validation/resources.js';
import { invalidValue, required, type FieldError } from '../../api/validation/field-errors.js';

/** The parts of a URL as Go's url.Parse splits them, or null when it refuses it. */
function goUrl(
  url: string,
): { scheme: string; user: string | null; host: string; query: string; fragment: string } | null {
  if ([...url].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) || /%(?![0-9A-Fa-f]{2})/.test(url))
    return null;
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(url);
  if (!m) return null;
  const authority = m[2] ?? '';
  const at = authority.lastIndexOf('@');
  return {
    scheme: (m[1] ?? '').toLowerCase(),
    user: at < 0 ? null : authority.slice(0, at),
    host: at < 0 ? authority : authority.slice(at + 1),
    query: m[4] ?? '',
    fragment: m[5] ?? '',
  };
}

/** ValidateWebhookURL(at, url, forceHttps true). */
export function validateWebhookUrl(at: string, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  const u = goUrl(url);
  if (!u) return [required(at, `url must be a valid URL: parse ${JSON.stringify(url)}: invalid URL${form}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalidValue(at, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (!u.host) errs.push(invalidValue(at, u.host, `host must be specified${form}`));
  if (u.user !== null) errs.push(invalidValue(at, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(invalidValue(at, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query) errs.push(invalidValue(at, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * ValidateWebhookService(at, namespace, name, path, port). The CRD validation passes the
 * service's name as `namespace` and its namespace as `name` (upstream's argument order), so a
 * missing name is reported at `.namespace`; callers pass them as upstream does.
 */
export function validateWebhookService(
  at: string,
  namespace: string,
  name: string,
  path: string | null | undefined,
  port: number,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(`${at}.name`, 'service name is required'));
  if (!namespace) errs.push(required(`${at}.namespace`, 'service namespace is required'));
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalidValue(`${at}.port`, port, `port is not valid: ${portErrs.join(', ')}`));
  if (path == null || path === '/' || path === '') return errs;
  if (path === '//') return [...errs, invalidValue(`${at}.path`, path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalidValue(`${at}.path`, path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) return void errs.push(invalidValue(`${at}.path`, path, `segment[${i}] may not be empty`));
    for (const m of validateDns1123Subdomain(step)) errs.push(invalidValue(`${at}.path`, path, `segment[${i}]: ${m}`));
  });
  return errs;
}

const PEM_BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/;

/** Why client-go refuses `ca` as root certificates, or undefined when it holds a certificate. */
function caProblem(ca: Buffer): string | undefined {
  let rest = ca.toString('latin1');
  let firstError: string | undefined;
  let found = false;
  while (rest.length) {
    const m = PEM_BLOCK.exec(rest);
    if (!m) {
      firstError ??= 'unable to parse bytes as PEM block';
      break;
    }
    rest = rest.slice(m.index + m[0].length);
    if (m[1] !== 'CERTIFICATE' || /^[^\n:]+:/m.test(m[2].split(/\r?\n\r?\n/)[0] ?? '')) continue;
    try {
      new X509Certificate(Buffer.from(m[2].replace(/\s+/g, ''), 'base64'));
      found = true;
    } catch (err) {
      firstError ??= `failed to parse certificate: ${(err as Error).message}`;
    }
  }
  if (found) return undefined;
  return `unable to load root certificates: ${firstError ?? 'no valid certificate authority data seen'}`;
}

/** A byte slice as Go's `%#v` prints it: `[]byte{0xa, 0x2d}`. */
function goBytes(b: Buffer): string {
  return `[]byte{${[...b].map((x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/** ValidateCABundle of a base64 `caBundle` at `at`. */
export function validateCABundle(at: string, caBundle: string): FieldError[] {
  const bytes = Buffer.from(caBundle, 'base64');
  const problem = caProblem(bytes);
  return problem ? [invalidGo(at, goBytes(bytes), problem)] : [];
}

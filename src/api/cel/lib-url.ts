/**
 * The Kubernetes URL library (k8s.io/apiserver pkg/cel/library/urls.go): `url(s)` (Go's
 * url.ParseRequestURI: absolute URLs or absolute paths), `isURL(s)`, and the getters
 * `getScheme`, `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`.
 */
import { type Overload, global, member } from './functions.js';
import { BOOL, STRING, listOf, mapOf, opaque } from './types.js';
import { CelErr, CelMap, CelOpaque } from './values.js';

/** A parsed URL (the parts Go's net/url keeps). */
export class UrlValue extends CelOpaque {
  readonly typeName = 'kubernetes.URL';
  constructor(
    readonly text: string,
    readonly scheme: string,
    readonly host: string,
    readonly escapedPath: string,
    readonly path: string,
    readonly rawQuery: string,
  ) {
    super();
  }
  equals(o: CelOpaque): boolean {
    return o instanceof UrlValue && o.text === this.text;
  }
}

const URL_T = opaque('kubernetes.URL');

const HOST_OK = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]*$/;

function shouldEscapePath(c: string): boolean {
  if (/[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c)) return false;
  return true;
}

/** Go's url.PathEscape-like escaping of a path (encodePath mode). */
function escapePath(p: string): string {
  let out = '';
  for (const b of Buffer.from(p, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && !shouldEscapePath(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function unescape(s: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(s)) return undefined;
  try {
    return decodeURIComponent(s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return Buffer.from(
      s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString();
  }
}

/**
 * Go's url.parse (net/url), `viaRequest` as ParseRequestURI: scheme, opaque, authority
 * (userinfo, host with a numeric port), path (escapes checked), query; a fragment is cut only by
 * url.Parse. Returns the error text Go gives, or the parts.
 */
function goParse(raw: string, viaRequest: boolean): UrlValue | string {
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return 'net/url: invalid control character in URL';
  }
  let rest = raw;
  let frag = '';
  if (!viaRequest) [rest, frag] = cut(raw, '#');
  void frag;
  if (rest === '' && viaRequest) return 'empty url';
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) return 'missing protocol scheme';
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  }
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else [rest, rawQuery] = cut(rest, '?');
  if (!rest.startsWith('/')) {
    if (scheme) return new UrlValue(raw, scheme, '', '', '', rawQuery);
    if (viaRequest) return 'invalid URI for request';
  }
  let host = '';
  if ((scheme || !viaRequest) && rest.startsWith('//') && !(!scheme && rest.startsWith('///'))) {
    let authority: string;
    [authority, rest] = cut(rest.slice(2), '/', true);
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
    if (host.startsWith('[')) {
      const end = host.indexOf(']');
      if (end < 0) return "missing ']' in host";
      const port = host.slice(end + 1);
      if (port && !/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
    } else {
      const i = host.lastIndexOf(':');
      if (i >= 0 && !/^:\d*$/.test(host.slice(i))) return `invalid port ${JSON.stringify(host.slice(i))} after host`;
      if (!HOST_OK.test(host))
        return `invalid character ${JSON.stringify(host.match(/[^A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]/)![0])} in host name`;
    }
  }
  const path = unescape(rest);
  if (path === undefined) return `invalid URL escape ${JSON.stringify(rest.match(/%.{0,2}/)![0])}`;
  const escaped = escapePath(path);
  const escapedPath = escaped === rest || !/^[A-Za-z0-9\-_.~$&+,/:;=@!'()*%]*$/.test(rest) ? escaped : rest;
  return new UrlValue(raw, scheme, host, escapedPath, path, rawQuery);
}

function cut(s: string, sep: string, keep = false): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ''] : [s.slice(0, i), keep ? s.slice(i) : s.slice(i + sep.length)];
}

/** The URL library's url(): ParseRequestURI to check, then Parse (upstream urls.go). */
function parseUrl(s: string): UrlValue | CelErr {
  const checked = goParse(s, true);
  if (typeof checked === 'string') {
    return new CelErr(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: ${checked}`);
  }
  const u = goParse(s, false);
  return typeof u === 'string'
    ? new CelErr(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: ${u}`)
    : u;
}

function hostname(h: string): string {
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end >= 0 ? h.slice(1, end) : h;
  }
  const c = h.lastIndexOf(':');
  return c >= 0 ? h.slice(0, c) : h;
}

function port(h: string): string {
  const end = h.startsWith('[') ? h.indexOf(']') + 1 : 0;
  const c = h.indexOf(':', end);
  return c >= 0 ? h.slice(c + 1) : '';
}

function query(raw: string): CelMap {
  const m = new CelMap();
  if (!raw) return m;
  for (const part of raw.split(/[&]/)) {
    if (!part) continue;
    const [k, v = ''] = part.split('=', 2) as [string, string?];
    if (k.includes(';')) continue;
    const key = unescape(k.replace(/\+/g, ' '));
    const val = unescape(v.replace(/\+/g, ' '));
    if (key === undefined || val === undefined) continue;
    const prev = m.get(key) as string[] | undefined;
    m.entries.set(`s${key}`, [key, [...(prev ?? []), val]]);
  }
  return m;
}

/** The URL library's overloads. */
export const URLS: readonly Overload[] = [
  global('url', 'string_to_url', [STRING], URL_T, parseUrl),
  global('isURL', 'is_url_string', [STRING], BOOL, (s: string) => !(parseUrl(s) instanceof CelErr)),
  member('getScheme', 'url_get_scheme', [URL_T], STRING, (u: UrlValue) => u.scheme),
  member('getHost', 'url_get_host', [URL_T], STRING, (u: UrlValue) => u.host),
  member('getHostname', 'url_get_hostname', [URL_T], STRING, (u: UrlValue) => hostname(u.host)),
  member('getPort', 'url_get_port', [URL_T], STRING, (u: UrlValue) => port(u.host)),
  member('getEscapedPath', 'url_get_escaped_path', [URL_T], STRING, (u: UrlValue) => u.escapedPath),
  member('getQuery', 'url_get_query', [URL_T], mapOf(STRING, listOf(STRING)), (u: UrlValue) => query(u.rawQuery)),
];

/**
 * Parse an API request path into verb, group, version, namespace, resource, name and
 * subresource, following upstream k8s.io/apiserver pkg/endpoints/request/requestinfo.go:
 *   /api/v1/[watch/][namespaces/{ns}/]{resource}[/{name}[/{subresource}]]
 *   /apis/{group}/{version}/...   (same tail)
 * `/api/v1/namespaces/{name}` names the namespace itself; `status` and `finalize` after it
 * are its subresources.
 */

export type RequestVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy' | '';

export interface RequestInfo {
  /** True for paths under /api or /apis that name a resource. */
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly verb: RequestVerb;
  readonly apiPrefix: 'api' | 'apis' | '';
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** Path segments after the subresource (served only by connect subresources such as proxies). */
  readonly extra: readonly string[];
  /** The raw (undecoded) path after the subresource segment, e.g. `/a/b/`; '' when none. */
  readonly subpath: string;
  /** True when the legacy `/watch/` path form was used. */
  readonly legacyWatch: boolean;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Go's strconv.ParseBool truth values; anything else but false/0 is also true for `watch`. */
export function parseBool(value: string | undefined): boolean {
  if (value === undefined) return false;
  return !['false', '0', 'f', 'F', 'FALSE', 'False'].includes(value);
}

/**
 * Parse `path` (already URL-decoded segments are decoded here) with method and `watch` query.
 * Never throws; non-resource paths come back with isResourceRequest false.
 */
export function parseRequestInfo(method: string, path: string, watchParam?: string): RequestInfo {
  const parts = path.split('/').filter((p) => p !== '').map(safeDecode);
  const base = { path, verb: '' as RequestVerb, group: '', version: '', namespace: '', resource: '', subresource: '', name: '', extra: [] as string[], subpath: '', legacyWatch: false };
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return { ...base, isResourceRequest: false, apiPrefix: '' };
  let rest: string[];
  let group = '';
  let version: string;
  if (prefix === 'api') {
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else {
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  }
  if (!version || rest.length === 0) return { ...base, isResourceRequest: false, apiPrefix: prefix, group, version };
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest = rest.slice(2);
  }
  const [resource = '', name = '', subresource = '', ...extra] = rest;
  let verb: RequestVerb;
  switch (method.toUpperCase()) {
    case 'POST':
      verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      verb = legacyWatch || parseBool(watchParam) ? 'watch' : name ? 'get' : 'list';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name ? 'delete' : 'deletecollection';
      break;
    default:
      verb = '';
  }
  const subpath = subresource ? rawTail(path, parts.length - extra.length) : '';
  return { ...base, isResourceRequest: resource !== '', apiPrefix: prefix, group, version, namespace, resource, name, subresource, extra, subpath, verb, legacyWatch };
}

/** The raw text of `path` after its first `skip` non-empty segments ('' or starting with '/'). */
function rawTail(path: string, skip: number): string {
  let i = 0;
  for (let seen = 0; seen < skip && i < path.length; seen++) {
    while (path[i] === '/') i++;
    const next = path.indexOf('/', i);
    i = next < 0 ? path.length : next;
  }
  return path.slice(i);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

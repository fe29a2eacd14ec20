/**
 * Parse an API request path into verb, group, version, namespace, resource, name and
 * subresource, following upstream k8s.io/apiserver pkg/endpoints/request/requestinfo.go:
 *   /api/v1/[watch/][namespaces/{ns}/]{resource}[/{name}[/{subresource}]]
 *   /apis/{group}/{version}/...   (same tail)
 * `/api/v1/namespaces/{name}` names the namespace itself; `status` and `finalize` after it
 * are its subresources.
 */

export type RequestVerb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy' | '';

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
  /**
   * True when the resource came after `namespaces/{ns}/` (a namespaced path), false for the
   * cluster-wide form and for `namespaces/{name}` itself (where `namespace` is the name).
   */
  readonly namespacedPath: boolean;
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
  const parts = segments(path);
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return info(path, '', '', '', [], '', false);
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
  if (!version || rest.length === 0) return info(path, prefix, group, version, [], '', false);
  let legacyWatch = false;
  if (rest[0] === 'watch') {
    legacyWatch = true;
    rest = rest.slice(1);
  }
  let namespace = '';
  let namespacedPath = false;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) {
      rest = rest.slice(2);
      namespacedPath = true;
    }
  }
  const result = info(path, prefix, group, version, rest, namespace, legacyWatch);
  result.namespacedPath = namespacedPath;
  result.verb = verbOf(method, legacyWatch || parseBool(watchParam), result.name !== '');
  if (result.subresource) result.subpath = rawTail(path, parts.length - result.extra.length);
  return result;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The request info of a resource path's parts (`rest`: resource, name, subresource, extra...). */
function info(
  path: string,
  apiPrefix: RequestInfo['apiPrefix'],
  group: string,
  version: string,
  rest: readonly string[],
  namespace: string,
  legacyWatch: boolean,
): Mutable<RequestInfo> {
  const resource = rest[0] ?? '';
  return {
    isResourceRequest: resource !== '',
    path,
    verb: '',
    apiPrefix,
    group,
    version,
    namespace,
    resource,
    name: rest[1] ?? '',
    subresource: rest[2] ?? '',
    extra: rest.length > 3 ? rest.slice(3) : NO_EXTRA,
    subpath: '',
    legacyWatch,
    namespacedPath: false,
  };
}

const NO_EXTRA: readonly string[] = Object.freeze([]);

/** The non-empty segments of `path`, percent-decoded where they hold escapes. */
function segments(path: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start <= path.length) {
    let end = path.indexOf('/', start);
    if (end < 0) end = path.length;
    if (end > start) {
      const seg = path.slice(start, end);
      out.push(seg.includes('%') ? safeDecode(seg) : seg);
    }
    start = end + 1;
  }
  return out;
}

function verbOf(method: string, watch: boolean, named: boolean): RequestVerb {
  switch (method.toUpperCase()) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return '';
  }
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

/**
 * The Kubernetes authorizer library (k8s.io/apiserver pkg/cel/library/authz.go, with the
 * AuthorizeWithSelectors additions): `authorizer.path(p).check(verb)`,
 * `authorizer.group(g).resource(r)[.subresource(s)][.namespace(ns)][.name(n)]
 * [.fieldSelector(f)][.labelSelector(l)].check(verb)`, `authorizer.serviceAccount(ns, name)`, and
 * on the decision `allowed()`, `reason()`, `errored()`, `error()`. `authorizer.requestResource`
 * is a resource check of the request's own resource. Every builder returns a new value; `check`
 * asks the authorizer the value carries, as the request's user (or the service account).
 *
 * The values are opaque: they expose no fields and compare by identity, as upstream's
 * receiver-only values do.
 */
import { validateDns1123Label, validateDns1123Subdomain } from '../names.js';
import { type Overload, member } from './functions.js';
import { BOOL, STRING, receiverOnly } from './types.js';
import { CelErr, CelOpaque } from './values.js';

/** The user an authorization check is made for (upstream user.Info). */
export interface CelAuthzUser {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * What a check asks (upstream authorizer.AttributesRecord, the fields this server's
 * authorizers read: the same as src/registry/access.ts AccessRequest). Resource checks ask
 * apiVersion `*`; path checks carry the path and the verb only.
 */
export interface CelAuthzAttributes {
  readonly user: CelAuthzUser;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** The authorizer the library asks (src/authorization's Authorizer has this shape). */
export interface CelAuthorizer {
  authorize(attrs: CelAuthzAttributes): { decision: 'allow' | 'deny' | 'no-opinion'; reason: string };
}

export const AUTHORIZER_T = receiverOnly('kubernetes.authorization.Authorizer');
export const PATH_CHECK_T = receiverOnly('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_T = receiverOnly('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_T = receiverOnly('kubernetes.authorization.ResourceCheck');
export const DECISION_T = receiverOnly('kubernetes.authorization.Decision');

abstract class ReceiverOnly extends CelOpaque {
  equals(o: CelOpaque): boolean {
    return o === this;
  }
}

/** `authorizer`: the authorizer and the user checks are made for. */
export class AuthorizerValue extends ReceiverOnly {
  readonly typeName = 'kubernetes.authorization.Authorizer';
  constructor(
    readonly authorizer: CelAuthorizer,
    readonly user: CelAuthzUser,
  ) {
    super();
  }
}

class PathCheck extends ReceiverOnly {
  readonly typeName = 'kubernetes.authorization.PathCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly path: string,
  ) {
    super();
  }
}

class GroupCheck extends ReceiverOnly {
  readonly typeName = 'kubernetes.authorization.GroupCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly group: string,
  ) {
    super();
  }
}

/** The parts of a resource check (every field '' when not set). */
export interface ResourceCheckParts {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly fieldSelector: string;
  readonly labelSelector: string;
}

/** A resource check being built. */
export class ResourceCheck extends ReceiverOnly {
  readonly typeName = 'kubernetes.authorization.ResourceCheck';
  constructor(
    readonly authz: AuthorizerValue,
    readonly parts: ResourceCheckParts,
  ) {
    super();
  }
  with(change: Partial<ResourceCheckParts>): ResourceCheck {
    return new ResourceCheck(this.authz, { ...this.parts, ...change });
  }
}

class Decision extends ReceiverOnly {
  readonly typeName = 'kubernetes.authorization.Decision';
  constructor(
    readonly decision: 'allow' | 'deny' | 'no-opinion',
    readonly reason: string,
    readonly error: string | undefined,
  ) {
    super();
  }
}

/** `authorizer.requestResource`: a resource check of the request's resource (upstream NewResourceAuthorizerVal). */
export function requestResourceCheck(
  authz: AuthorizerValue,
  r: { group: string; resource: string; subresource: string; namespace: string; name: string },
): ResourceCheck {
  return new ResourceCheck(authz, { ...r, fieldSelector: '', labelSelector: '' });
}

function ask(authz: AuthorizerValue, attrs: Omit<CelAuthzAttributes, 'user'>): Decision {
  try {
    const { decision, reason } = authz.authorizer.authorize({ ...attrs, user: authz.user });
    return new Decision(decision, reason, undefined);
  } catch (e) {
    return new Decision('no-opinion', '', e instanceof Error ? e.message : String(e));
  }
}

const EMPTY = { isResourceRequest: false, path: '', apiGroup: '', apiVersion: '', namespace: '', resource: '' };

const setter =
  (field: keyof ResourceCheckParts) =>
  (r: ResourceCheck, v: string): ResourceCheck =>
    r.with({ [field]: v });

/** The library's overloads (ids as upstream's). */
export const AUTHZ: readonly Overload[] = [
  member('path', 'authorizer_path', [AUTHORIZER_T, STRING], PATH_CHECK_T, (a: AuthorizerValue, p: string) =>
    p.trim() ? new PathCheck(a, p) : new CelErr('path must not be empty'),
  ),
  member('group', 'authorizer_group', [AUTHORIZER_T, STRING], GROUP_CHECK_T, (a: AuthorizerValue, g: string) => {
    return new GroupCheck(a, g);
  }),
  member(
    'serviceAccount',
    'authorizer_serviceaccount',
    [AUTHORIZER_T, STRING, STRING],
    AUTHORIZER_T,
    (a: AuthorizerValue, ns: string, name: string) => {
      if (validateDns1123Subdomain(name).length) return new CelErr('Invalid service account name');
      if (validateDns1123Label(ns).length) return new CelErr('Invalid service account namespace');
      const user = {
        name: `system:serviceaccount:${ns}:${name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
      };
      return new AuthorizerValue(a.authorizer, user);
    },
  ),
  member('resource', 'groupcheck_resource', [GROUP_CHECK_T, STRING], RESOURCE_CHECK_T, (g: GroupCheck, r: string) =>
    r.trim()
      ? new ResourceCheck(g.authz, {
          group: g.group,
          resource: r,
          subresource: '',
          namespace: '',
          name: '',
          fieldSelector: '',
          labelSelector: '',
        })
      : new CelErr('resource must not be empty'),
  ),
  member(
    'subresource',
    'resourcecheck_subresource',
    [RESOURCE_CHECK_T, STRING],
    RESOURCE_CHECK_T,
    setter('subresource'),
  ),
  member('namespace', 'resourcecheck_namespace', [RESOURCE_CHECK_T, STRING], RESOURCE_CHECK_T, setter('namespace')),
  member('name', 'resourcecheck_name', [RESOURCE_CHECK_T, STRING], RESOURCE_CHECK_T, setter('name')),
  member(
    'fieldSelector',
    'authorizer_fieldselector',
    [RESOURCE_CHECK_T, STRING],
    RESOURCE_CHECK_T,
    setter('fieldSelector'),
  ),
  member(
    'labelSelector',
    'authorizer_labelselector',
    [RESOURCE_CHECK_T, STRING],
    RESOURCE_CHECK_T,
    setter('labelSelector'),
  ),
  member('check', 'pathcheck_check', [PATH_CHECK_T, STRING], DECISION_T, (p: PathCheck, verb: string) =>
    ask(p.authz, { ...EMPTY, verb, path: p.path, subresource: '', name: '' }),
  ),
  member('check', 'resourcecheck_check', [RESOURCE_CHECK_T, STRING], DECISION_T, (r: ResourceCheck, verb: string) =>
    ask(r.authz, {
      ...EMPTY,
      verb,
      isResourceRequest: true,
      apiGroup: r.parts.group,
      apiVersion: '*',
      resource: r.parts.resource,
      subresource: r.parts.subresource,
      namespace: r.parts.namespace,
      name: r.parts.name,
    }),
  ),
  member('errored', 'decision_errored', [DECISION_T], BOOL, (d: Decision) => d.error !== undefined),
  member('error', 'decision_error', [DECISION_T], STRING, (d: Decision) => d.error ?? ''),
  member('allowed', 'decision_allowed', [DECISION_T], BOOL, (d: Decision) => d.decision === 'allow'),
  member('reason', 'decision_reason', [DECISION_T], STRING, (d: Decision) => d.reason),
];

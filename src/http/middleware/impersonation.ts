/**
 * Impersonation (upstream k8s.io/apiserver pkg/endpoints/filters/impersonation.go
 * WithImpersonation): a request carrying `Impersonate-User` (with optional `Impersonate-Group`
 * headers, `Impersonate-Uid` and `Impersonate-Extra-<key>` headers) runs as that user once the
 * authenticated caller is allowed to `impersonate` each part:
 *  - a user: `users` in group "" named the user; a `system:serviceaccount:<ns>:<name>` user:
 *    `serviceaccounts` `<name>` in `<ns>` (its groups are then the service account groups,
 *    unless groups are given);
 *  - each group: `groups`; each extra value: `userextras/<key>` named the value, and the uid:
 *    `uids` named the uid, both in group authentication.k8s.io.
 * Any part not allowed is 403 with upstream's message (`users "eve" is forbidden: User "alice"
 * cannot impersonate resource "users" in API group "" at the cluster scope`). The impersonated
 * user gets `system:authenticated` unless its groups name it or `system:unauthenticated`
 * (`system:anonymous` gets `system:unauthenticated` instead). The audit event keeps the caller
 * as `user` and names the new one `impersonatedUser`.
 *
 * One difference from upstream, on purpose: groups, uid or extras without a user are 400
 * BadRequest here (upstream answers 500 for this client mistake).
 */
import { badRequest } from '../../errors/api-error.js';
import { validateDns1123Label, validateDns1123Subdomain } from '../../api/names.js';
import type { Attributes, Authorizer } from '../../authorization/types.js';
import type { ApiContext } from '../context.js';
import type { UserInfo } from '../../auth/user-info.js';
import { forbiddenError } from './authorization.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const SA_PREFIX = 'system:serviceaccount:';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS_NAME = 'system:anonymous';

/** One thing asked for, as the authorization attributes that must allow it. */
interface ImpersonationRequest {
  readonly resource: 'users' | 'serviceaccounts' | 'groups' | 'userextras' | 'uids';
  readonly apiGroup: string;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
}

/** The impersonation headers of a request, in the order sent (names lower case, values as sent). */
function headersOf(ctx: ApiContext): Array<[string, string]> {
  const raw = ctx.req.rawHeaders;
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name.startsWith('impersonate-')) out.push([name, raw[i + 1]!]);
  }
  return out;
}

/** `[namespace, name]` of a service account user name, as upstream serviceaccount.SplitUsername. */
export function splitServiceAccountUser(username: string): [string, string] | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (validateDns1123Label(namespace).length || validateDns1123Subdomain(name).length) return undefined;
  return [namespace, name];
}

/** Go's url.PathUnescape of an extra key, keeping the key as sent when it is malformed. */
function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/**
 * The user a request impersonates and what must be allowed for it, or undefined when it asks
 * for none. Throws ApiError 400 for groups, a uid or extras without a user.
 */
export function impersonationOf(
  headers: ReadonlyArray<[string, string]>,
  caller: UserInfo,
): { user: UserInfo; requests: ImpersonationRequest[] } | undefined {
  if (headers.length === 0) return undefined;
  const requests: ImpersonationRequest[] = [];
  const requestedUser = headers.find(([n]) => n === USER)?.[1] ?? '';
  let name = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  let uid = '';
  const groupsGiven = headers.some(([n]) => n === GROUP);
  if (requestedUser) {
    const sa = splitServiceAccountUser(requestedUser);
    if (sa) {
      requests.push({ resource: 'serviceaccounts', apiGroup: '', namespace: sa[0], name: sa[1], subresource: '' });
      if (!groupsGiven) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa[0]}`];
    } else {
      requests.push({ resource: 'users', apiGroup: '', namespace: '', name: requestedUser, subresource: '' });
    }
    name = requestedUser;
  }
  for (const [n, value] of headers) {
    if (n === GROUP) {
      requests.push({ resource: 'groups', apiGroup: '', namespace: '', name: value, subresource: '' });
      groups.push(value);
    } else if (n.startsWith(EXTRA_PREFIX)) {
      const key = unescapeExtraKey(n.slice(EXTRA_PREFIX.length));
      requests.push({
        resource: 'userextras',
        apiGroup: AUTHENTICATION_GROUP,
        namespace: '',
        name: value,
        subresource: key,
      });
      (extra[key] ??= []).push(value);
    }
  }
  const requestedUid = headers.find(([n]) => n === UID)?.[1] ?? '';
  if (requestedUid) {
    requests.push({
      resource: 'uids',
      apiGroup: AUTHENTICATION_GROUP,
      namespace: '',
      name: requestedUid,
      subresource: '',
    });
    uid = requestedUid;
  }
  if (!requestedUser) {
    if (requests.length === 0) return undefined; // only empty headers: nothing asked
    throw badRequest(
      `requested impersonation of ${requests.map((r) => `${r.resource} "${r.name}"`).join(', ')} without impersonating a user (${caller.name})`,
    );
  }
  if (name !== ANONYMOUS_NAME) {
    if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  } else if (!groups.includes(UNAUTHENTICATED)) {
    groups.push(UNAUTHENTICATED);
  }
  const user: UserInfo = { name, uid, groups, ...(Object.keys(extra).length ? { extra } : {}) };
  return { user, requests };
}

/** Upstream WithImpersonation, after authentication and audit, before authorization. */
export function impersonation(authorizer: Authorizer) {
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const caller = ctx.state.user;
    const headers = caller ? headersOf(ctx) : [];
    const asked = caller && impersonationOf(headers, caller);
    if (asked) {
      for (const r of asked.requests) {
        const attrs: Attributes = {
          user: caller,
          verb: 'impersonate',
          isResourceRequest: true,
          path: ctx.path,
          apiVersion: '',
          ...r,
        };
        const { decision, reason } = authorizer.authorize(attrs);
        if (decision !== 'allow') throw forbiddenError(attrs, reason);
      }
      ctx.state.user = asked.user;
      const event = ctx.state.audit?.event;
      if (event) {
        const u = asked.user;
        event.impersonatedUser = {
          username: u.name,
          ...(u.uid ? { uid: u.uid } : {}),
          ...(u.groups.length ? { groups: [...u.groups] } : {}),
          ...(u.extra ? { extra: u.extra } : {}),
        };
      }
    }
    return next();
  };
}

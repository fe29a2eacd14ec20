/**
 * Authorization of every authenticated request (upstream WithAuthorization): the request's
 * attributes go to the configured authorizer; anything not allowed is 403 Forbidden with
 * upstream's message, e.g. `secrets is forbidden: User "alice" cannot list resource "secrets"
 * in API group "" in the namespace "default"`. Paths served without authentication (health,
 * version) carry no user and pass. A list or watch whose field selector pins
 * `metadata.name=<n>` is authorized for that name, as upstream's request info does.
 */
import { ApiError, forbidden } from '../../errors/api-error.js';
import type { Attributes, Authorizer } from '../../authorization/types.js';
import { forbiddenMessage } from '../../authorization/types.js';
import type { ApiContext } from '../context.js';
import type { UserInfo } from '../../auth/user-info.js';
import { addAuditAnnotation } from '../../audit/annotations.js';

export function authorization(authorizer: Authorizer) {
  return (ctx: ApiContext, next: () => Promise<void>): Promise<void> => {
    const user = ctx.state.user;
    if (user) {
      const attrs = attributesOf(ctx, user);
      const { decision, reason } = authorizer.authorize(attrs);
      // Upstream's audit annotations of the decision (on audited requests only).
      addAuditAnnotation(ctx, 'authorization.k8s.io/decision', decision === 'allow' ? 'allow' : 'forbid');
      addAuditAnnotation(ctx, 'authorization.k8s.io/reason', reason);
      if (decision !== 'allow') throw forbiddenError(attrs, reason);
    }
    return next();
  };
}

/** The authorization attributes of a request (upstream authorizer.AttributesRecord from RequestInfo). */
export function attributesOf(ctx: ApiContext, user: UserInfo): Attributes {
  const info = ctx.state.requestInfo;
  const method = ctx.method.toLowerCase();
  if (!info?.isResourceRequest) {
    return {
      user,
      verb: method,
      isResourceRequest: false,
      path: ctx.path,
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
  let name = info.name;
  if (!name && (info.verb === 'list' || info.verb === 'watch')) name = pinnedName(ctx.query.fieldSelector);
  return {
    user,
    verb: info.verb || method,
    isResourceRequest: true,
    path: ctx.path,
    apiGroup: info.group,
    apiVersion: info.version,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name,
  };
}

/** `n` of a `metadata.name=n` (or `==`) requirement in a field selector, else ''. */
function pinnedName(selector: string | string[] | undefined): string {
  const text = Array.isArray(selector) ? selector[0] : selector;
  for (const part of (text ?? '').split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*([^\s/%]+)\s*$/.exec(part);
    if (m && m[1] !== '.' && m[1] !== '..') return m[1];
  }
  return '';
}

/** The 403 of a denied request (upstream responsewriters.Forbidden / errors.NewForbidden). */
export function forbiddenError(attrs: Attributes, reason: string): ApiError {
  const message = reason ? `${forbiddenMessage(attrs)}: ${reason}` : forbiddenMessage(attrs);
  if (!attrs.isResourceRequest) return new ApiError(403, 'Forbidden', `forbidden: ${message}`, {});
  return forbidden(attrs.resource, attrs.name, message, attrs.apiGroup);
}

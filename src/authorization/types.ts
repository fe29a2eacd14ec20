/**
 * Authorization: who may do what (upstream k8s.io/apiserver pkg/authorization/authorizer).
 * A request becomes {@link Attributes}; each configured {@link Authorizer} answers allow, deny
 * or no opinion, and the first that does not abstain decides (upstream union authorizer);
 * if none allows, the request is 403 Forbidden with {@link forbiddenMessage}.
 */
import type { AccessRequest } from '../registry/access.js';

/**
 * What authorization sees of a request (upstream authorizer.AttributesRecord): the review kinds
 * describe the same thing (registry/access.ts), so it is one type. Resource requests carry get,
 * list, watch, create, update, patch, delete, deletecollection (or verbs checked elsewhere,
 * `bind`, `escalate`); other paths the lower-case HTTP method and the path.
 */
export type Attributes = AccessRequest;

export type Decision = 'allow' | 'deny' | 'no-opinion';

export interface Authorization {
  readonly decision: Decision;
  /** Why (may be ''): appended to the 403 message after ': '. */
  readonly reason: string;
}

/** One authorization mode (`--authorization-mode`). */
export interface Authorizer {
  authorize(attrs: Attributes): Authorization;
}

/** Ask each authorizer in order; the first allow or deny decides (upstream union.New). */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(attrs) {
      const reasons: string[] = [];
      for (const a of authorizers) {
        const result = a.authorize(attrs);
        if (result.decision !== 'no-opinion') return result;
        if (result.reason) reasons.push(result.reason);
      }
      return { decision: 'no-opinion', reason: reasons.join('\n') };
    },
  };
}

/** AlwaysAllow: every request is allowed. */
export const ALWAYS_ALLOW: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };

/** AlwaysDeny: every request is denied. */
export const ALWAYS_DENY: Authorizer = { authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }) };

/**
 * The text of a denial, as upstream's responsewriters forbiddenMessage (1.14+ wording):
 * `User "alice" cannot list resource "secrets" in API group "" in the namespace "default"`,
 * `... at the cluster scope`, or `User "alice" cannot get path "/metrics"`.
 */
export function forbiddenMessage(attrs: Attributes): string {
  const user = attrs.user.name;
  if (!attrs.isResourceRequest) return `User "${user}" cannot ${attrs.verb} path "${attrs.path}"`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace "${attrs.namespace}"` : 'at the cluster scope';
  return `User "${user}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}" ${where}`;
}

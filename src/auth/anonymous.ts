/**
 * Upstream's anonymous user (k8s.io/apiserver pkg/authentication/request/anonymous):
 * `system:anonymous` in `system:unauthenticated`, for requests without credentials under
 * `--anonymous-auth`, the audit events of public paths, and reviews made by nobody in particular.
 */
export const ANONYMOUS = { name: 'system:anonymous', uid: '', groups: ['system:unauthenticated'] } as const satisfies {
  name: string;
  uid: string;
  groups: readonly string[];
};

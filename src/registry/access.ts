/**
 * What the review kinds ask of the server (upstream: the authorizer and authenticator their
 * REST storage is built with): SubjectAccessReview and its self/local forms, rules reviews,
 * SelfSubjectReview and TokenReview; and who a request or write is made by (WriterInfo).
 */
/** The user behind a write, as authentication found it. */
export interface WriterInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  /** Extra attributes of the user (upstream user.Info GetExtra). */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** A resource or non-resource request to decide on (upstream authorizationapi attributes). */
export interface AccessRequest {
  readonly user: WriterInfo;
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

/** A rule as a rules review reports it. */
export interface ReviewedRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[] | null;
  readonly resources?: readonly string[] | null;
  readonly resourceNames?: readonly string[] | null;
  readonly nonResourceURLs?: readonly string[] | null;
}

export interface AccessServices {
  /** The decision of the configured authorizer. */
  authorize(req: AccessRequest): { allowed: boolean; denied: boolean; reason: string };
  /** The rules `user` holds in `namespace` ('' = cluster-wide); `incomplete` when no rule-listing authorizer answers. */
  rulesFor(user: WriterInfo, namespace: string): { rules: readonly ReviewedRule[]; incomplete: boolean };
  /**
   * What a bearer token authenticates as for `audiences` (none: the API's own), as TokenReview
   * answers it: the user and the audiences it holds for, or `error`; null when no
   * authenticator knows the token.
   */
  reviewToken(
    token: string,
    audiences: readonly string[],
  ): Promise<{ user?: WriterInfo; audiences?: readonly string[]; error?: string } | null>;
  /** Issues service account tokens (TokenRequest); absent when the server has no signing key. */
  readonly serviceAccountTokens?: TokenIssuer;
}

/** What a TokenRequest asks for. */
export interface ServiceAccountTokenRequest {
  readonly namespace: string;
  readonly serviceAccount: { readonly name: string; readonly uid: string };
  readonly bound?: { readonly kind: 'Pod' | 'Secret'; readonly name: string; readonly uid: string };
  readonly audiences: readonly string[];
  /** Seconds. */
  readonly expirationSeconds: number;
}

/** Signs service account tokens (upstream's TokenGenerator). */
export interface TokenIssuer {
  /** `--api-audiences`: what a token is for when the request names no audience. */
  readonly audiences: readonly string[];
  issue(req: ServiceAccountTokenRequest): Promise<{ token: string; expirationTimestamp: string }>;
}

/**
 * The authenticated caller (upstream k8s.io/apiserver pkg/authentication/user Info): what every
 * authenticator answers and what the request carries from authentication on.
 */

/** The authenticated caller. */
export interface UserInfo {
  readonly name: string;
  readonly uid: string;
  readonly groups: readonly string[];
  /** Extra attributes (upstream user.Info GetExtra), e.g. from `Impersonate-Extra-<key>`. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Bearer tokens that are our service account JWTs (upstream pkg/serviceaccount
 * validator): the signature, issuer, time window and audience must hold (see
 * service-account-tokens.ts), the service account must still exist with the token's uid, and
 * a bound pod or secret must still exist with its uid (a pod deleted more than 60 s ago ends
 * its tokens, as upstream). The user is `system:serviceaccount:<ns>:<name>` in
 * system:serviceaccounts, system:serviceaccounts:<ns> and system:authenticated. Objects are
 * read at resourceVersion 0 (from the watch cache), not from etcd per request.
 */
import type { ApiObject } from '../api/object.js';
import type { UserInfo } from './user-info.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';
import type { TokenResponse } from './audiences.js';

/** Reads one object, null when it does not exist. */
export type ObjectLookup = (
  resource: 'serviceaccounts' | 'pods' | 'secrets',
  namespace: string,
  name: string,
) => Promise<ApiObject | null>;

const DELETION_GRACE_MS = 60_000;

export class ServiceAccountAuthenticator {
  constructor(
    private readonly tokens: ServiceAccountTokens,
    private readonly lookup: ObjectLookup,
    private readonly now: () => number = Date.now,
  ) {}

  /** The service account user of `Authorization: Bearer <jwt>`, or null. Throws nothing. */
  async authenticate(authorization: string | undefined): Promise<UserInfo | null> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return m ? ((await this.reviewToken(m[1]!))?.user ?? null) : null;
  }

  /**
   * The service account user of a bare token for `audiences` (default, or when empty: the API
   * audiences), with the audiences it holds for; `error` when it is ours but valid for none of
   * them; null when it is not a live token of ours.
   */
  async reviewToken(token: string, audiences: readonly string[] = []): Promise<TokenResponse | null> {
    const verified = await this.tokens.verify(token, audiences.length ? audiences : undefined);
    if (!verified) return null;
    if ('error' in verified) return { error: verified.error };
    const { claim } = verified;
    const ns = claim.namespace;
    const sa = await this.lookup('serviceaccounts', ns, claim.serviceaccount.name).catch(() => null);
    if (!this.live(sa, claim.serviceaccount.uid, 0)) return null;
    if (
      claim.pod &&
      !this.live(await this.lookup('pods', ns, claim.pod.name).catch(() => null), claim.pod.uid, DELETION_GRACE_MS)
    )
      return null;
    if (
      claim.secret &&
      !this.live(await this.lookup('secrets', ns, claim.secret.name).catch(() => null), claim.secret.uid, 0)
    )
      return null;
    const user = {
      name: `system:serviceaccount:${ns}:${claim.serviceaccount.name}`,
      uid: claim.serviceaccount.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
    };
    return { user, audiences: verified.audiences };
  }

  /** Exists with `uid`, and is not being deleted for longer than `graceMs`. */
  private live(obj: ApiObject | null, uid: string, graceMs: number): boolean {
    if (!obj || obj.metadata.uid !== uid) return false;
    const deleting = obj.metadata.deletionTimestamp;
    return !deleting || Date.parse(deleting) + graceMs > this.now();
  }
}

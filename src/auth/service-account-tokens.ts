/**
 * Service account tokens as upstream issues and checks them (pkg/serviceaccount/jwt.go and
 * claims.go): signed JWTs (RS256 for RSA keys, ES256 for P-256 keys; `kid` = base64url of the
 * SHA-256 of the public key's DER, as upstream's keyIDFromPublicKey) with `iss`, `sub`
 * (`system:serviceaccount:<ns>:<name>`), `aud`, `iat`, `nbf`, `exp`, `jti` and the private
 * claim `kubernetes.io` {namespace, serviceaccount {name, uid}, pod|secret {name, uid}}.
 * Signing and verification use `jose`. The same keys serve the OIDC discovery documents.
 */
import { createHash, createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import { decodeJwt, exportJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';
import type { ServiceAccountTokenRequest } from '../registry/access.js';
import { goQuotedList, intersectAudiences } from './audiences.js';

/** The `kubernetes.io` claim. */
export interface KubernetesClaim {
  readonly namespace: string;
  readonly serviceaccount: { readonly name: string; readonly uid: string };
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
}

/** What a token is issued for (the TokenRequest, see registry/access.ts). */
export type TokenRequestClaims = ServiceAccountTokenRequest;

export interface ServiceAccountTokenSettings {
  /** `--service-account-issuer`: the `iss` of issued tokens, and the only one accepted. */
  readonly issuer: string;
  /** `--api-audiences`: a token must name one of them in `aud`. */
  readonly audiences: readonly string[];
  /** PEM private key (`--service-account-signing-key-file`). */
  readonly signingKeyPem: string;
  /** PEM keys (public or private) that verify tokens (`--service-account-key-file`); the signing key always does. */
  readonly verifyingKeyPems?: readonly string[];
}

interface VerifyingKey {
  readonly kid: string;
  readonly alg: string;
  readonly key: KeyObject;
}

function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(`unsupported service account key type ${key.asymmetricKeyType} (RSA or P-256 EC keys are)`);
}

/** Upstream keyIDFromPublicKey: base64url(SHA-256(DER SubjectPublicKeyInfo)). */
function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

function publicKeyOf(pem: string): KeyObject {
  return pem.includes('PRIVATE KEY') ? createPublicKey(createPrivateKey(pem)) : createPublicKey(pem);
}

/** A token of ours that holds for some of the audiences asked. */
export interface VerifiedToken {
  readonly claim: KubernetesClaim;
  readonly audiences: readonly string[];
}

export class ServiceAccountTokens {
  readonly issuer: string;
  readonly audiences: readonly string[];
  private readonly signingKey: KeyObject;
  private readonly signing: VerifyingKey;
  private readonly verifying: VerifyingKey[];

  /** Throws for unreadable or unsupported keys. */
  constructor(settings: ServiceAccountTokenSettings) {
    this.issuer = settings.issuer;
    this.audiences = settings.audiences;
    this.signingKey = createPrivateKey(settings.signingKeyPem);
    const pub = createPublicKey(this.signingKey);
    this.signing = { kid: keyId(pub), alg: algorithmOf(pub), key: pub };
    const others = (settings.verifyingKeyPems ?? [])
      .map(publicKeyOf)
      .map((key) => ({ kid: keyId(key), alg: algorithmOf(key), key }));
    this.verifying = [this.signing, ...others.filter((k) => k.kid !== this.signing.kid)];
  }

  /** Sign a token; returns it and its expiry (RFC 3339, seconds). */
  async issue(req: TokenRequestClaims, now = Date.now()): Promise<{ token: string; expirationTimestamp: string }> {
    const iat = Math.floor(now / 1000);
    const exp = iat + req.expirationSeconds;
    const claim: KubernetesClaim = {
      namespace: req.namespace,
      serviceaccount: req.serviceAccount,
      ...(req.bound
        ? { [req.bound.kind === 'Pod' ? 'pod' : 'secret']: { name: req.bound.name, uid: req.bound.uid } }
        : {}),
    };
    const token = await new SignJWT({ 'kubernetes.io': claim as unknown as Record<string, unknown> })
      .setProtectedHeader({ alg: this.signing.alg, kid: this.signing.kid })
      .setIssuer(this.issuer)
      .setSubject(`system:serviceaccount:${req.namespace}:${req.serviceAccount.name}`)
      .setAudience([...req.audiences])
      .setIssuedAt(iat)
      .setNotBefore(iat)
      .setExpirationTime(exp)
      .setJti(randomUUID())
      .sign(this.signingKey);
    return { token, expirationTimestamp: new Date(exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }

  /**
   * The `kubernetes.io` claim of a valid token of ours (signature, issuer, time window) and the
   * audiences among `requested` (default: the API audiences) that its `aud` names, or null:
   * tokens of other issuers and anything not a JWT are not ours. A token of ours valid for none
   * of the requested audiences answers `error` (upstream jwt.go: `token audiences ["a"] is
   * invalid for the target audiences ["b"]`).
   */
  async verify(
    token: string,
    requested: readonly string[] = this.audiences,
  ): Promise<VerifiedToken | { readonly error: string } | null> {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch {
      return null;
    }
    if (unverified.iss !== this.issuer) return null;
    for (const k of this.verifying) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, k.key, { issuer: this.issuer, algorithms: [k.alg], clockTolerance: 60 }));
      } catch {
        continue; // next key
      }
      const claim = payload['kubernetes.io'] as KubernetesClaim | undefined;
      if (!claim?.namespace || !claim.serviceaccount?.name) return null;
      if (payload.sub !== `system:serviceaccount:${claim.namespace}:${claim.serviceaccount.name}`) return null;
      const own = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      // Only the API's own audiences hold for a token without any (upstream: legacy tokens).
      const tokenAudiences = own.length ? own : [...this.audiences];
      const audiences = intersectAudiences(tokenAudiences, requested);
      if (audiences.length === 0)
        return {
          error: `token audiences ${goQuotedList(tokenAudiences)} is invalid for the target audiences ${goQuotedList(requested)}`,
        };
      return { claim, audiences };
    }
    return null;
  }

  /** The JSON Web Key Set of every verifying key (upstream /openid/v1/jwks). */
  async jwks(): Promise<{ keys: JWK[] }> {
    const keys = await Promise.all(
      this.verifying.map(async (k) => ({ ...(await exportJWK(k.key)), use: 'sig', kid: k.kid, alg: k.alg })),
    );
    return { keys };
  }

  /** The OIDC discovery document (upstream /.well-known/openid-configuration). */
  discovery(jwksUri: string): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(this.verifying.map((k) => k.alg))].sort(),
    };
  }
}

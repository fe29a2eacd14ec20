/**
 * One built-in signer (upstream 1.33 pkg/controller/certificates/signer/signer.go signer.handle,
 * sign, duration): a request that is Approved, not Failed, for this signer and without a
 * certificate is checked by the signer's rules (signer-checks.ts); one that breaks them gets
 * the condition Failed (reason `SignerValidationFailure`, the rule's message), the others a
 * certificate from the CA, both written through the `status` subresource. The certificate lives
 * `spec.expirationSeconds` (at least 10 minutes) capped by --cluster-signing-duration,
 * NotBefore backdated 5 minutes (NotAfter too unless the lifetime is under 8 hours).
 */
import { rfc3339 } from '../../../api/object.js';
import { parseCsr } from '../../../resources/certificatesigningrequests/csr-parse.js';
import { hasTrueCondition, isApproved, requestBytes, usageSet, type Csr } from '../csr-conditions.js';
import type { CertificateAuthority } from './authority.js';
import { checkForSigner, type SignerCheck } from './signer-checks.js';

/** What the signer writes: a request with its status changed, through `/status`. */
export interface SignerClient {
  updateStatus(csr: Csr): Promise<void>;
}

/** Upstream's backdate (5 min), short-lifetime bound (8 h) and minimum lifetime (10 min), in ms. */
export const BACKDATE_MS = 5 * 60_000;
export const SHORT_MS = 8 * 3600_000;
export const MIN_DURATION_MS = 10 * 60_000;
/** --cluster-signing-duration's default: 8760h (one year). */
export const DEFAULT_CLUSTER_SIGNING_DURATION_MS = 8760 * 3600_000;

/** One built-in signer over a CA: which requests it signs or fails, and for how long it signs. */
export class CsrSigner {
  private readonly check: SignerCheck;

  /**
   * @param signerName one of the built-in signers (throws Error `unrecognized signerName: "x"` otherwise)
   * @param ca the CA, asked for anew at each signing (its files may change)
   * @param certTtlMs the longest lifetime issued (--cluster-signing-duration)
   */
  constructor(
    readonly signerName: string,
    private readonly ca: () => Promise<CertificateAuthority>,
    private readonly certTtlMs: number = DEFAULT_CLUSTER_SIGNING_DURATION_MS,
  ) {
    this.check = checkForSigner(signerName);
  }

  /**
   * Sign or fail `csr` (a copy the caller owns). Throws Error `unable to parse csr "<name>": ...`
   * for a request that does not parse, `error auto signing csr: ...` when signing fails, and
   * the client's error of a status write, for the queue to retry.
   */
  async handle(csr: Csr, client: SignerClient): Promise<void> {
    if (!isApproved(csr) || hasTrueCondition(csr, 'Failed')) return;
    if (csr.spec.signerName !== this.signerName) return;
    const request = requestBytes(csr);
    let parsed;
    try {
      parsed = parseCsr(request);
    } catch (err) {
      throw new Error(`unable to parse csr ${JSON.stringify(csr.metadata.name ?? '')}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const problem = this.check(parsed, usageSet(csr));
    if (problem !== null) {
      const failed = {
        type: 'Failed',
        status: 'True',
        reason: 'SignerValidationFailure',
        message: problem,
        lastUpdateTime: rfc3339(),
      };
      await client.updateStatus({
        ...csr,
        status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] },
      });
      return;
    }
    let pem: string;
    try {
      pem = await this.sign(request.toString('latin1'), csr.spec.usages ?? [], csr.spec.expirationSeconds ?? undefined);
    } catch (err) {
      throw new Error(`error auto signing csr: ${(err as Error).message}`, { cause: err });
    }
    await client.updateStatus({ ...csr, status: { ...csr.status, certificate: Buffer.from(pem).toString('base64') } });
  }

  /** Sign a PEM request for `usages`, living `expirationSeconds` if given (see {@link duration}); answers PEM. */
  async sign(
    requestPem: string,
    usages: readonly string[],
    expirationSeconds?: number,
    now?: () => number,
  ): Promise<string> {
    const ca = await this.ca();
    return ca.sign(requestPem, {
      ttlMs: this.duration(expirationSeconds),
      usages,
      backdateMs: BACKDATE_MS,
      shortMs: SHORT_MS,
      now,
    });
  }

  /** The lifetime of a certificate asking for `expirationSeconds` (ms): capped by the TTL, at least 10 minutes. */
  duration(expirationSeconds?: number): number {
    if (expirationSeconds === undefined) return this.certTtlMs;
    const requested = expirationSeconds * 1000;
    if (requested > this.certTtlMs) return this.certTtlMs;
    if (requested < MIN_DURATION_MS) return MIN_DURATION_MS;
    return requested;
  }
}

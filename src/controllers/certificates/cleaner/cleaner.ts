/**
 * The CSR cleaner (upstream 1.33 pkg/controller/certificates/cleaner/cleaner.go): every hour
 * it lists the requests and deletes those past their time: issued (Approved with a
 * certificate) an hour after approval, Denied or Failed an hour after that condition's
 * lastUpdateTime, pending (no condition) a day after creation, and issued ones whose
 * certificate has expired at once. A certificate that does not parse counts as not expired.
 * Deletes go as `certificate-controller`.
 *
 * Name in `--controllers`: `csrcleaner` (on by default upstream).
 */
import { X509Certificate } from 'node:crypto';
import type { Logger } from 'pino';
import { errorMessage } from '../../../api/error-message.js';
import { ApiError } from '../../../errors/api-error.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { certificateSigningRequests } from '../../../resources/certificatesigningrequests/csr.resource.js';
import { resyncLoop } from '../../watch-loop.js';
import { registryCsrClient, type CsrClient } from '../csr-client.js';
import { certificateBytes, isIssued, type Csr } from '../csr-conditions.js';

export const CSR_CLEANER_CONTROLLER = 'csrcleaner';

/** Upstream's polling interval and the ages after which requests go (ms). */
export const POLLING_INTERVAL_MS = 3600_000;
export const APPROVED_EXPIRATION_MS = 3600_000;
export const DENIED_EXPIRATION_MS = 3600_000;
export const PENDING_EXPIRATION_MS = 24 * 3600_000;

/** isOlderThan: a set time more than `ms` before `now`. */
const olderThan = (time: string | null | undefined, ms: number, now: number) =>
  Boolean(time) && Date.parse(time!) - now < -ms;

/** isExpired: the first certificate's NotAfter has passed; false when it does not parse. */
function certificateExpired(csr: Csr, now: number): boolean {
  const m = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(
    certificateBytes(csr).toString('latin1'),
  );
  if (!m) return false;
  try {
    return now > Date.parse(new X509Certificate(m[0]).validTo);
  } catch {
    return false;
  }
}

/**
 * Why `csr` is to be deleted at `now` (ms), as upstream logs it, or null to keep it
 * (isIssuedPastDeadline, isDeniedPastDeadline, isFailedPastDeadline, isPendingPastDeadline,
 * isIssuedExpired, in that order).
 */
export function cleanupReason(csr: Csr, now: number = Date.now()): string | null {
  const conditions = csr.status?.conditions ?? [];
  const issued = isIssued(csr);
  if (
    conditions.some((c) => c.type === 'Approved' && issued && olderThan(c.lastUpdateTime, APPROVED_EXPIRATION_MS, now))
  )
    return 'it is more than approvedExpiration duration old and approved';
  if (conditions.some((c) => c.type === 'Denied' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now)))
    return 'it is more than deniedExpiration duration old and denied';
  if (conditions.some((c) => c.type === 'Failed' && olderThan(c.lastUpdateTime, DENIED_EXPIRATION_MS, now)))
    return 'it is more than deniedExpiration duration old and failed';
  if (!conditions.length && olderThan(csr.metadata.creationTimestamp, PENDING_EXPIRATION_MS, now))
    return 'it is more than pendingExpiration duration old and unhandled';
  if (conditions.some((c) => c.type === 'Approved') && issued && certificateExpired(csr, now))
    return 'the associated certificate is expired';
  return null;
}

/** The `csrcleaner` controller: `start()` cleans at once and then every polling interval, `stop()` ends it. */
export class CsrCleanerController {
  private readonly abort = new AbortController();
  private readonly client: CsrClient;

  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly opts: { readonly pollingIntervalMs?: number; readonly client?: CsrClient } = {},
  ) {
    this.client = opts.client ?? registryCsrClient(registry.of(certificateSigningRequests));
  }

  start(): void {
    resyncLoop(this.abort.signal, this.opts.pollingIntervalMs ?? POLLING_INTERVAL_MS, () => this.worker());
  }

  stop(): void {
    this.abort.abort();
  }

  /** One pass over every request (upstream worker); failures are logged, never thrown. */
  async worker(): Promise<void> {
    let csrs: Csr[];
    try {
      csrs = await this.client.list();
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'Unable to list CSRs');
      return;
    }
    for (const csr of csrs) {
      if (this.abort.signal.aborted) return;
      try {
        await this.handle(csr);
      } catch (err) {
        this.logger.warn({ csr: csr.metadata.name, err: errorMessage(err) }, 'Error while attempting to clean CSR');
      }
    }
  }

  /** Delete `csr` when it is past its time. Throws Error `unable to delete CSR "<name>": ...`. */
  async handle(csr: Csr, now: number = Date.now()): Promise<void> {
    const reason = cleanupReason(csr, now);
    if (!reason) return;
    this.logger.info({ csr: csr.metadata.name }, `Cleaning CSR as ${reason}`);
    try {
      await this.client.delete(csr.metadata.name ?? '');
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw new Error(`unable to delete CSR ${JSON.stringify(csr.metadata.name ?? '')}: ${errorMessage(err)}`, {
        cause: err,
      });
    }
  }
}

/**
 * The CSR approving controller (upstream 1.33 kube-controller-manager `csrapproving`:
 * pkg/controller/certificates/approver NewCSRApprovingController): the shared certificate
 * controller loop with the SubjectAccessReview approver (sar-approver.ts), asking this server's
 * authorizer (`--authorization-mode`) what a SubjectAccessReview would answer. Writes go as
 * `certificate-controller`.
 *
 * Name in `--controllers`: `csrapproving` (on by default upstream).
 */
import type { Logger } from 'pino';
import type { Authorizer } from '../../../authorization/types.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { certificateSigningRequests } from '../../../resources/certificatesigningrequests/csr.resource.js';
import { CertificateController } from '../certificate-controller.js';
import { registryCsrClient } from '../csr-client.js';
import { approve } from './sar-approver.js';

export const CSR_APPROVING_CONTROLLER = 'csrapproving';

/** Options of the approving controller. */
export interface CsrApprovingOptions {
  /** The server's authorizer (deps.authorization.authorizer). */
  readonly authorizer: Authorizer;
  /** Requests handled at once (upstream: 5). */
  readonly workers?: number;
}

/** The `csrapproving` controller: `start()` watches requests, `stop()` ends it. */
export class CsrApprovingController {
  private readonly loop: CertificateController;

  constructor(registry: ResourceRegistry, logger: Logger, opts: CsrApprovingOptions) {
    const store = registry.of(certificateSigningRequests);
    const client = registryCsrClient(store);
    const deps = {
      authorize: (req: Parameters<Authorizer['authorize']>[0]) => opts.authorizer.authorize(req).decision === 'allow',
      updateApproval: (csr: Parameters<typeof client.updateApproval>[0]) => client.updateApproval(csr),
    };
    this.loop = new CertificateController(
      CSR_APPROVING_CONTROLLER,
      store,
      client,
      (csr) => approve(csr, deps),
      logger,
      opts.workers,
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): void {
    this.loop.stop();
  }
}

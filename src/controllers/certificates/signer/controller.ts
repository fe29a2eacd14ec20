/**
 * The CSR signing controller (upstream 1.33 kube-controller-manager `csrsigning`:
 * cmd/kube-controller-manager/app/certificates.go and pkg/controller/certificates/signer): the
 * built-in signers kubelet-serving, kube-apiserver-client-kubelet, kube-apiserver-client and
 * legacy-unknown sign approved requests with the CA of their files (ca-provider.ts). Without
 * any signing files the controller does nothing and says so, as upstream's ("Skipping CSR
 * signer controller because no csr cert/key was specified"). One watch and queue serve all
 * four signers (upstream runs one loop each); writes go as `certificate-controller`.
 *
 * Name in `--controllers`: `csrsigning` (on by default upstream).
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../../api/error-message.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { certificateSigningRequests } from '../../../resources/certificatesigningrequests/csr.resource.js';
import { CertificateController } from '../certificate-controller.js';
import { registryCsrClient, type CsrClient } from '../csr-client.js';
import type { Csr } from '../csr-conditions.js';
import { FileCaProvider, signingFilesBySigner, type SigningFileOptions, type SigningFiles } from './ca-provider.js';
import { CsrSigner, DEFAULT_CLUSTER_SIGNING_DURATION_MS } from './signer.js';

export const CSR_SIGNING_CONTROLLER = 'csrsigning';

/** Options of the signing controller: kube-controller-manager's signing flags. */
export interface CsrSigningOptions extends SigningFileOptions {
  /** `--cluster-signing-duration` in seconds (default 8760h): the longest lifetime issued. */
  readonly clusterSigningDurationSeconds?: number;
  /**
   * The CA every signer uses when no signing flag is given (this server's own CA; see
   * ca-provider.ts serverCaSigningFiles). Absent: no flag means no signer.
   */
  readonly defaultFiles?: SigningFiles;
  /** Requests signed at once (upstream: 5). */
  readonly workers?: number;
}

/** The `csrsigning` controller: `start()` watches requests (when any signer runs), `stop()` ends it. */
export class CsrSigningController {
  private readonly signers: CsrSigner[] = [];
  private readonly providers = new Map<string, FileCaProvider>();
  private readonly loop?: CertificateController;

  /** Throws Error when both the single and the per-signer files are given. */
  constructor(
    registry: ResourceRegistry,
    private readonly logger: Logger,
    opts: CsrSigningOptions = {},
  ) {
    const flags = signingFilesBySigner(opts);
    const files =
      flags.size || !opts.defaultFiles
        ? flags
        : signingFilesBySigner({
            clusterSigningCertFile: opts.defaultFiles.certFile,
            clusterSigningKeyFile: opts.defaultFiles.keyFile,
          });
    if (!files.size) {
      logger.info('Skipping CSR signer controller because no csr cert/key was specified');
      return;
    }
    const ttlMs = (opts.clusterSigningDurationSeconds ?? DEFAULT_CLUSTER_SIGNING_DURATION_MS / 1000) * 1000;
    for (const [signerName, f] of files) {
      const key = `${f.certFile}\n${f.keyFile}`;
      const provider = this.providers.get(key) ?? new FileCaProvider(f);
      this.providers.set(key, provider);
      this.signers.push(new CsrSigner(signerName, () => provider.currentCa(), ttlMs));
    }
    const store = registry.of(certificateSigningRequests);
    const client = registryCsrClient(store);
    this.loop = new CertificateController(
      CSR_SIGNING_CONTROLLER,
      store,
      client,
      (csr) => this.handle(csr, client),
      logger,
      opts.workers,
    );
  }

  /** The signer names that run (empty when the controller is off). */
  get signerNames(): string[] {
    return this.signers.map((s) => s.signerName);
  }

  start(): void {
    if (!this.loop) return;
    // Upstream fails to start a signer whose files do not load; here it is logged and each
    // request tries again (retried with backoff), so a CA written later is picked up.
    for (const provider of this.providers.values())
      provider
        .currentCa()
        .catch((err: unknown) => this.logger.error({ err: errorMessage(err) }, 'CSR signer CA not loaded'));
    this.loop.start();
  }

  stop(): void {
    this.loop?.stop();
  }

  /** The signer of `csr.spec.signerName` handles it (the others would ignore it). */
  private async handle(csr: Csr, client: CsrClient): Promise<void> {
    await this.signers.find((s) => s.signerName === csr.spec.signerName)?.handle(csr, client);
  }
}

/**
 * The loop the CSR signer and approver share (upstream 1.33 pkg/controller/certificates/
 * certificate_controller.go CertificateController): every added, changed or deleted request
 * queues its name; a worker reads it from the cache and, unless it is gone or already has a
 * certificate, hands a copy to the handler. A handler's failure retries the name with backoff;
 * an {@link IgnorableError} (a request recognized but not allowed) is retried the same way but
 * logged only at debug level. Started by the leader; `stop()` ends the watch and the queue.
 */
import type { Logger } from 'pino';
import { errorMessage } from '../../api/error-message.js';
import { deepCopy } from '../../api/object.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { watchLoop } from '../watch-loop.js';
import { WorkQueue } from '../work-queue.js';
import type { CsrClient } from './csr-client.js';
import { isIssued, type Csr } from './csr-conditions.js';

/** An error that is expected and retried quietly (upstream certificates.IgnorableError). */
export class IgnorableError extends Error {}

/** Handles one request (a copy it may change); throws to retry it. */
export type CsrHandler = (csr: Csr) => Promise<void>;

/** One named CSR loop: a watch of every request feeding a de-duplicating queue of names. */
export class CertificateController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;

  /**
   * @param name the controller's name in logs (`csrsigning`, `csrapproving`)
   * @param workers names synced at once (upstream runs 5)
   */
  constructor(
    private readonly name: string,
    private readonly store: GenericStore<Csr>,
    private readonly client: CsrClient,
    private readonly handler: CsrHandler,
    private readonly logger: Logger,
    workers = 5,
  ) {
    this.queue = new WorkQueue<string>(
      (k) => k,
      (k) => this.sync(k),
      logger,
      workers,
    );
  }

  start(): void {
    this.logger.info({ controller: this.name }, 'starting certificate controller');
    void watchLoop(this.store, this.abort.signal, (ev) => this.queue.add(ev.object.metadata.name ?? ''), this.logger);
  }

  stop(): void {
    this.abort.abort();
    this.queue.stop();
  }

  /** Sync one request by name (upstream syncFunc). Throws the handler's error to retry. */
  async sync(name: string): Promise<void> {
    const csr = await this.client.get(name);
    if (!csr || isIssued(csr)) return;
    try {
      await this.handler(deepCopy(csr));
    } catch (err) {
      if (err instanceof IgnorableError) this.logger.debug({ csr: name, err: err.message }, 'sync csr failed');
      else this.logger.warn({ controller: this.name, csr: name, err: errorMessage(err) }, 'sync csr failed');
      throw err;
    }
  }
}

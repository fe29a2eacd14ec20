/**
 * The service-account controller (upstream pkg/controller/serviceaccount
 * serviceaccounts_controller.go): every Active namespace has a ServiceAccount named `default`.
 * It is created when a namespace appears or changes, and again when someone deletes it;
 * a periodic resync catches what a restart missed. A Terminating namespace gets none
 * (its create is refused by NamespaceLifecycle, as upstream's).
 */
import type { Logger } from 'pino';
import { namespaces } from '../resources/namespaces/namespaces.resource.js';
import type { Namespace } from '../resources/namespaces/namespaces.schema.js';
import { serviceAccounts } from '../resources/serviceaccounts/serviceaccounts.resource.js';
import { ApiError } from '../errors/api-error.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { resyncLoop, watchLoop } from './watch-loop.js';
import { errorMessage } from '../api/error-message.js';

/** The service accounts every namespace gets (upstream's controller options). */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'] as const;

export class ServiceAccountController {
  private readonly abort = new AbortController();
  /** Namespaces being synced now (a second request while one runs is folded into it). */
  private readonly syncing = new Map<string, Promise<void>>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly resyncMs = 60_000,
  ) {}

  start(): void {
    const signal = this.abort.signal;
    void watchLoop(
      this.registry.of(namespaces),
      signal,
      (ev) => {
        if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.sync(ev.object);
      },
      this.logger,
    );
    void watchLoop(
      this.registry.of(serviceAccounts),
      signal,
      (ev) => {
        const { name, namespace } = ev.object.metadata;
        if (ev.type === 'DELETED' && DEFAULT_SERVICE_ACCOUNTS.some((n) => n === name))
          this.syncNamespace(namespace ?? '');
      },
      this.logger,
    );
    resyncLoop(signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
  }

  private async resync(): Promise<void> {
    try {
      const store = this.registry.of(namespaces);
      for (const ns of (await store.list('', { predicate: buildPredicate(store.def) })).items) this.sync(ns);
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'service account resync failed');
    }
  }

  private sync(namespace: Namespace): void {
    const phase = namespace.status?.phase;
    if (namespace.metadata.deletionTimestamp || (phase && phase !== 'Active')) return;
    this.syncNamespace(namespace.metadata.name ?? '');
  }

  private syncNamespace(ns: string): void {
    if (!ns || this.abort.signal.aborted || this.syncing.has(ns)) return;
    const run = this.ensure(ns).finally(() => this.syncing.delete(ns));
    this.syncing.set(ns, run);
  }

  /** Create the missing default service accounts of `ns`. Refusals (namespace gone or terminating) end it quietly. */
  private async ensure(ns: string): Promise<void> {
    const accounts = this.registry.of(serviceAccounts);
    for (const name of DEFAULT_SERVICE_ACCOUNTS) {
      try {
        await accounts.get(ns, name, '0').catch(async (err) => {
          if (!(err instanceof ApiError && err.code === 404)) throw err;
          await accounts.create(ns, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } });
          this.logger.debug({ namespace: ns, serviceAccount: name }, 'created service account');
        });
      } catch (err) {
        // 409: another writer was first; 403/404: the namespace is terminating or gone.
        if (err instanceof ApiError && [403, 404, 409].includes(err.code)) continue;
        this.logger.warn(
          { namespace: ns, serviceAccount: name, err: errorMessage(err) },
          'creating service account failed',
        );
      }
    }
  }
}

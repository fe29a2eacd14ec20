/**
 * The namespace controller (upstream pkg/controller/namespace): for each Terminating namespace,
 * delete every namespaced object in it, then remove the `kubernetes` finalizer through
 * `/finalize`, then delete the namespace. Driven by a watch on namespaces plus a periodic
 * resync, so a missed event or a crashed replica only delays the work. Every step is
 * idempotent, so several replicas running it at once is safe.
 */
import type { Logger } from 'pino';
import { ApiError } from '../errors/api-error.js';
import { deleteObject, finalizeDelete } from '../registry/deletion.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { NAMESPACE_FINALIZER, namespaces as namespacesResource } from '../resources/namespaces/namespaces.resource.js';
import type { Namespace } from '../resources/namespaces/namespaces.schema.js';
import { resyncLoop, watchLoop } from './watch-loop.js';
import { errorMessage } from '../api/error-message.js';

export class NamespaceController {
  private readonly abort = new AbortController();
  private readonly pending = new Set<string>();
  private running = false;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly resyncMs = 30_000,
  ) {}

  /** Start watching; returns at once. */
  start(): void {
    void watchLoop(
      this.registry.of(namespacesResource),
      this.abort.signal,
      (ev) => {
        if (ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp) this.enqueue(ev.object.metadata.name ?? '');
      },
      this.logger,
    );
    resyncLoop(this.abort.signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
  }

  private async resync(): Promise<void> {
    try {
      const namespaces = this.registry.of(namespacesResource);
      const list = await namespaces.list('', { predicate: buildPredicate(namespaces.def) });
      for (const ns of list.items) if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name ?? '');
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'namespace resync failed');
    }
  }

  private enqueue(name: string): void {
    this.pending.add(name);
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.size && !this.abort.signal.aborted) {
        const first = this.pending.values().next();
        if (first.done) break;
        const name = first.value;
        this.pending.delete(name);
        try {
          await this.finalize(name);
        } catch (err) {
          this.logger.warn({ namespace: name, err: errorMessage(err) }, 'namespace cleanup failed; will retry');
          setTimeout(() => this.enqueue(name), 2000).unref();
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Empty the namespace, then finalize and delete it. */
  private async finalize(name: string): Promise<void> {
    const namespaces = this.registry.of(namespacesResource);
    let ns: Namespace;
    try {
      ns = await namespaces.get('', name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const store of this.registry.all()) {
      if (!store.def.namespaced || !store.def.verbs.includes('list')) continue;
      const list = await store.list(name, { predicate: buildPredicate(store.def) });
      for (const item of list.items) {
        remaining++;
        await deleteObject(store, name, item.metadata.name ?? '', { propagationPolicy: 'Background' }).catch((err) => {
          if (!(err instanceof ApiError && err.code === 404)) throw err;
        });
      }
    }
    if (remaining > 0) {
      // Objects with finalizers may linger; look again shortly.
      setTimeout(() => this.enqueue(name), 1000).unref();
      return;
    }
    if ((ns.spec?.finalizers ?? []).includes(NAMESPACE_FINALIZER)) {
      const finalize = namespaces.def.subresources.find((s) => s.name === 'finalize');
      await namespaces.update(
        '',
        name,
        (old) => ({
          ...old,
          spec: { ...old.spec, finalizers: (old.spec?.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) },
        }),
        finalize,
      );
    }
    const latest = await namespaces.get('', name);
    if ((latest.spec?.finalizers ?? []).length === 0 && (latest.metadata.finalizers ?? []).length === 0) {
      await finalizeDelete(namespaces, '', name, { preconditions: { uid: latest.metadata.uid } }).catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
      this.logger.info({ namespace: name }, 'namespace finalized and deleted');
    }
  }
}

/**
 * The namespace controller (upstream pkg/controller/namespace): for each Terminating namespace,
 * delete every namespaced object in it, then remove the `kubernetes` finalizer through
 * `/finalize`, then delete the namespace. Driven by a watch on namespaces plus a periodic
 * resync, so a missed event or a crashed replica only delays the work. Every step is
 * idempotent, so several replicas running it at once is safe.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../api/object.js';
import { ApiError } from '../errors/api-error.js';
import { deleteObject, finalizeDelete } from '../registry/deletion.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { NAMESPACE_FINALIZER } from '../resources/namespaces/namespaces.resource.js';
import { resyncLoop, watchLoop } from './watch-loop.js';

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
    void watchLoop(this.registry.core('namespaces'), this.abort.signal, (ev) => {
      if (ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp) this.enqueue(ev.object.metadata.name ?? '');
    }, this.logger);
    resyncLoop(this.abort.signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.abort.abort();
  }

  private async resync(): Promise<void> {
    try {
      const list = await this.registry.core('namespaces').list('', { predicate: buildPredicate(this.registry.core('namespaces').def) });
      for (const ns of list.items) if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name ?? '');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'namespace resync failed');
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
        const name = this.pending.values().next().value as string;
        this.pending.delete(name);
        try {
          await this.finalize(name);
        } catch (err) {
          this.logger.warn({ namespace: name, err: (err as Error).message }, 'namespace cleanup failed; will retry');
          setTimeout(() => this.enqueue(name), 2000).unref();
        }
      }
    } finally {
      this.running = false;
    }
  }

  /** Empty the namespace, then finalize and delete it. */
  private async finalize(name: string): Promise<void> {
    const namespaces = this.registry.core('namespaces');
    let ns: ApiObject;
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
    const spec = (ns.spec ?? {}) as { finalizers?: string[] };
    if ((spec.finalizers ?? []).includes(NAMESPACE_FINALIZER)) {
      const finalize = namespaces.def.subresources.find((s) => s.name === 'finalize');
      await namespaces.update(
        '',
        name,
        (old) => ({ ...old, spec: { ...(old.spec as object), finalizers: ((old.spec as typeof spec)?.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) } }),
        finalize,
      );
    }
    const latest = await namespaces.get('', name);
    if (((latest.spec as typeof spec)?.finalizers ?? []).length === 0 && (latest.metadata.finalizers ?? []).length === 0) {
      await finalizeDelete(namespaces, '', name, { preconditions: { uid: latest.metadata.uid } }).catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
      this.logger.info({ namespace: name }, 'namespace finalized and deleted');
    }
  }
}

/**
 * The resource quota controller (upstream pkg/controller/resourcequota, 1.10): keeps each
 * ResourceQuota's `status.hard` equal to `spec.hard` and `status.used` equal to what the
 * namespace's objects use, for every resource named in `hard` (0 when nothing uses it).
 * A namespace is recomputed when one of its quotas is created or its spec changes, when an
 * object that quota counts is deleted or changes (replenishment: a pod finishing frees its
 * compute resources), and on a periodic resync (upstream --resource-quota-sync-period, 5 min).
 * Creations are not recomputed: admission has charged them already. Status is written by
 * compare-and-swap, so a charge made meanwhile by admission makes the write retry.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { ApiObject } from '../api/object.js';
import { quantityOf } from '../api/quantity.js';
import { addLists, formatResourceList, maskList, parseResourceList, type ResourceList } from '../api/resource-list.js';
import type { Evaluator } from '../admission/quota/evaluators.js';
import { quotaMatches, quotaView } from '../admission/quota/resource-quota.js';
import { ApiError } from '../errors/api-error.js';
import { errorMessage } from '../api/error-message.js';
import { resourceQuotas } from '../resources/resourcequotas/resourcequotas.resource.js';
import { buildPredicate, type Predicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { GenericStore } from '../registry/generic-store.js';
import { resyncLoop, watchLoop } from './watch-loop.js';
import { WorkQueue } from './work-queue.js';

export class ResourceQuotaController {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<string>;
  /** Every quota (no selector), for the reads of each event. */
  private readonly everyQuota: Predicate;

  /** One evaluator per stored resource and quota name (see countedOnce). */
  private evaluators: readonly Evaluator[];
  /** The watch of each counted store, by store. */
  private readonly watches = new Map<GenericStore, AbortController>();
  private stopFollowing?: () => void;

  /**
   * `evaluatorsOf` gives the evaluators of stores served at run time (custom resources): they
   * are counted, and watched, from when they are served.
   */
  constructor(
    private readonly registry: ResourceRegistry,
    evaluators: readonly Evaluator[],
    private readonly logger: Logger,
    private readonly resyncMs = 5 * 60_000,
    private readonly evaluatorsOf?: (stores: GenericStore[]) => Evaluator[],
  ) {
    this.evaluators = countedOnce(evaluators);
    this.queue = new WorkQueue(
      (ns) => ns,
      (ns) => this.syncNamespace(ns),
      logger,
    );
    this.everyQuota = buildPredicate(registry.of(resourceQuotas).def);
  }

  start(): void {
    const signal = this.abort.signal;
    setMaxListeners(0, signal); // one watch per counted kind, more as resources are served
    const quotas = this.registry.of(resourceQuotas);
    void watchLoop(
      quotas,
      signal,
      (ev) => {
        if (ev.type === 'DELETED') return;
        const spec = JSON.stringify(formatResourceList(parseResourceList(ev.object.spec?.hard)));
        const status = JSON.stringify(formatResourceList(parseResourceList(ev.object.status?.hard)));
        const used = ev.object.status?.used;
        if (spec !== status || !used) this.queue.add(ev.object.metadata.namespace ?? '');
      },
      this.logger,
    );
    this.watchCounted();
    if (this.evaluatorsOf) this.stopFollowing = this.registry.onChange(() => this.followServed());
    resyncLoop(signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.stopFollowing?.();
    this.abort.abort();
    this.queue.stop();
  }

  /** Watch each counted store not yet watched: a change or deletion there may change usage. */
  private watchCounted(): void {
    const quotas = this.registry.of(resourceQuotas);
    for (const ev of this.evaluators) {
      if (ev.store === quotas || ev.store.def.watchCache === false || this.watches.has(ev.store)) continue;
      const watch = new AbortController();
      this.abort.signal.addEventListener('abort', () => watch.abort(), { once: true, signal: watch.signal });
      this.watches.set(ev.store, watch);
      void watchLoop(
        ev.store,
        watch.signal,
        (event) => {
          if (event.type === 'DELETED' || event.type === 'MODIFIED')
            this.enqueueIfQuoted(event.object.metadata.namespace ?? '');
        },
        this.logger,
      );
    }
  }

  /** Count the stores served since, and forget those withdrawn. */
  private followServed(): void {
    const served = new Set(this.registry.all());
    const counted = new Set(this.evaluators.map((e) => e.store));
    const fresh = [...served].filter((s) => !counted.has(s));
    this.evaluators = countedOnce([
      ...this.evaluators.filter((e) => served.has(e.store)),
      ...(fresh.length && this.evaluatorsOf ? this.evaluatorsOf(fresh) : []),
    ]);
    for (const [store, watch] of this.watches) {
      if (served.has(store)) continue;
      watch.abort();
      this.watches.delete(store);
    }
    this.watchCounted();
  }

  /** Queue `ns` if it has a quota (read from the watch cache; most namespaces have none). */
  private enqueueIfQuoted(ns: string): void {
    const quotas = this.registry.of(resourceQuotas);
    quotas.list(ns, { predicate: this.everyQuota, resourceVersion: '0', limit: 1 }).then(
      (list) => {
        if (list.items.length) this.queue.add(ns);
      },
      () => this.queue.add(ns),
    );
  }

  private async resync(): Promise<void> {
    try {
      const quotas = this.registry.of(resourceQuotas);
      const list = await quotas.list('', { predicate: buildPredicate(quotas.def) });
      for (const ns of new Set(list.items.map((q) => q.metadata.namespace ?? ''))) this.queue.add(ns);
    } catch (err) {
      this.logger.warn({ err: errorMessage(err) }, 'resource quota resync failed');
    }
  }

  /** Recompute every quota of `ns` from a consistent list of the objects it counts. */
  private async syncNamespace(ns: string): Promise<void> {
    if (this.abort.signal.aborted) return;
    const quotas = this.registry.of(resourceQuotas);
    const objects = new Map<Evaluator, ApiObject[]>();
    const objectsOf = async (ev: Evaluator): Promise<ApiObject[]> => {
      let items = objects.get(ev);
      if (!items) {
        items = (await ev.store.list(ns, { predicate: buildPredicate(ev.store.def) })).items;
        objects.set(ev, items);
      }
      return items;
    };
    for (const quota of (await quotas.list(ns, { predicate: buildPredicate(quotas.def) })).items) {
      const name = quota.metadata.name ?? '';
      try {
        await quotas.mutate(ns, name, async (current) => {
          const hard = parseResourceList(current.spec?.hard);
          const view = { ...quotaView(current), hard };
          let used: ResourceList = new Map();
          for (const ev of this.evaluators) {
            if (![...hard.keys()].some((k) => ev.matches(k))) continue;
            for (const obj of await objectsOf(ev))
              if (quotaMatches(view, ev, obj)) used = addLists(used, ev.usage(obj));
          }
          used = maskList(used, hard.keys());
          for (const k of hard.keys()) if (!used.has(k)) used.set(k, quantityOf(0));
          const status = { hard: formatResourceList(hard), used: formatResourceList(used) };
          // An unchanged object is not written (storage compares the bytes).
          if (JSON.stringify(status) === JSON.stringify(current.status ?? {})) return current;
          return { ...current, status };
        });
        this.logger.debug({ namespace: ns, quota: name }, 'quota usage recomputed');
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) continue;
        throw err;
      }
    }
  }
}

/**
 * The evaluators with one per storage and set of quota names: the versions of a resource served
 * over one storage (apps/v1 and apps/v1beta1 deployments) have evaluators of the same names
 * that list the same objects, and counting each would count every object once per version.
 * The names of another group (extensions' `count/deployments.extensions`) stay counted.
 */
export function countedOnce(evaluators: readonly Evaluator[]): Evaluator[] {
  const seen = new Set<string>();
  return evaluators.filter((ev) => {
    const key = `${ev.store.def.storagePrefix}|${ev.store.def.group}|${ev.store.def.plural}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

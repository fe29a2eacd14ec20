/**
 * The garbage collector (upstream pkg/controller/garbagecollector), following
 * metadata.ownerReferences within a namespace:
 *  - an owner marked with the `orphan` finalizer has that reference removed from each
 *    dependent, then the finalizer removed (and so the owner deleted);
 *  - an owner marked with `foregroundDeletion` has its dependents deleted first, and the
 *    finalizer removed once none remain;
 *  - when an owner is gone (Background), dependents with no remaining owner are deleted, and
 *    references to missing owners are dropped from dependents that still have one.
 * Driven by watches on every kind plus a periodic resync; every step is idempotent.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { ApiObject, OwnerReference } from '../api/object.js';
import { ApiError } from '../errors/api-error.js';
import { deleteObject, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../registry/deletion.js';
import type { GenericStore } from '../registry/generic-store.js';
import { buildPredicate } from '../registry/predicate.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { groupVersionOf } from '../registry/types.js';
import { resyncLoop, watchLoop } from './watch-loop.js';
import { WorkQueue } from './work-queue.js';
import { errorMessage } from '../api/error-message.js';

/** Where a dependent lives, and whom it names as owners. */
interface DependentRef {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly owners: readonly OwnerReference[];
}

interface OwnerTask {
  readonly store: GenericStore;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

const ignoreMissing = (err: unknown) => {
  if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
};

export class GarbageCollector {
  private readonly abort = new AbortController();
  private readonly queue: WorkQueue<OwnerTask>;
  /** The watch of each storage prefix watched, by prefix. */
  private readonly watches = new Map<string, AbortController>();
  private stopFollowing?: () => void;
  /** Dependents by owner uid, kept from the watches (upstream's dependency graph, flattened). */
  private readonly byOwner = new Map<string, Map<string, DependentRef>>();
  private readonly dependentsIndex = new Map<string, DependentRef>();

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
    private readonly resyncMs = 30_000,
  ) {
    // One watch per kind shares this signal: lift Node's default limit of 10 listeners.
    setMaxListeners(0, this.abort.signal);
    this.queue = new WorkQueue(
      (t) => `${t.store.def.storagePrefix}/${t.namespace}/${t.name}/${t.uid}`,
      (t) => this.process(t),
      logger,
    );
  }

  start(): void {
    this.watchServed();
    // Resources served at run time (custom resources) are watched from when they are served.
    this.stopFollowing = this.registry.onChange(() => this.watchServed());
    resyncLoop(this.abort.signal, this.resyncMs, () => this.resync());
  }

  stop(): void {
    this.stopFollowing?.();
    this.abort.abort();
    this.queue.stop();
  }

  /**
   * Watch every served storage prefix not yet watched (a kind served under two groups from one
   * storage is watched once), and stop watching prefixes no longer served.
   */
  private watchServed(): void {
    const served = new Set<string>();
    for (const store of this.registry.all()) {
      if (!store.def.verbs.includes('watch')) continue;
      served.add(store.def.storagePrefix);
      if (this.watches.has(store.def.storagePrefix)) continue;
      const watch = new AbortController();
      this.abort.signal.addEventListener('abort', () => watch.abort(), { once: true, signal: watch.signal });
      this.watches.set(store.def.storagePrefix, watch);
      void watchLoop(store, watch.signal, (ev) => this.observe(store, ev.object, ev.type === 'DELETED'), this.logger);
    }
    for (const [prefix, watch] of this.watches) {
      if (served.has(prefix)) continue;
      watch.abort();
      this.watches.delete(prefix);
    }
  }

  /** Index `obj` as a dependent, and queue it as an owner when it needs work. */
  private observe(store: GenericStore, obj: ApiObject, deleted: boolean): void {
    const meta = obj.metadata;
    this.index(store, obj, deleted);
    const gcFinalizer = (meta.finalizers ?? []).some((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
    if (deleted || (meta.deletionTimestamp && gcFinalizer)) {
      this.queue.add({ store, namespace: meta.namespace ?? '', name: meta.name ?? '', uid: meta.uid ?? '' });
    }
  }

  private index(store: GenericStore, obj: ApiObject, deleted: boolean): void {
    const key = `${store.def.storagePrefix}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    for (const ref of this.dependentsIndex.get(key)?.owners ?? []) {
      const deps = this.byOwner.get(ref.uid);
      deps?.delete(key);
      if (deps?.size === 0) this.byOwner.delete(ref.uid);
    }
    this.dependentsIndex.delete(key);
    const owners = obj.metadata.ownerReferences ?? [];
    if (deleted || !owners.length) return;
    const dep: DependentRef = { store, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', owners };
    this.dependentsIndex.set(key, dep);
    for (const ref of owners) {
      if (!this.byOwner.has(ref.uid)) this.byOwner.set(ref.uid, new Map());
      this.byOwner.get(ref.uid)!.set(key, dep);
    }
  }

  /**
   * Re-list everything: refresh the index, queue owners with GC finalizers, and queue owners
   * that vanished before their dependents were seen (their DELETED event came first).
   */
  private async resync(): Promise<void> {
    const live = new Set<string>();
    for (const store of this.registry.all()) {
      if (!store.def.verbs.includes('list')) continue;
      try {
        for (const obj of (await store.list('', { predicate: buildPredicate(store.def) })).items) {
          live.add(obj.metadata.uid ?? '');
          this.observe(store, obj, false);
        }
      } catch (err) {
        this.logger.warn({ resource: store.def.plural, err: errorMessage(err) }, 'gc resync failed');
        return;
      }
    }
    for (const dep of this.dependentsIndex.values()) {
      for (const ref of dep.owners) {
        if (live.has(ref.uid)) continue;
        const store = this.storeOf(ref);
        if (store)
          this.queue.add({ store, namespace: store.def.namespaced ? dep.namespace : '', name: ref.name, uid: ref.uid });
      }
    }
  }

  /** The store serving an owner reference's kind, if this server serves it. */
  private storeOf(ref: OwnerReference): GenericStore | undefined {
    const { group, version } = groupVersionOf(ref.apiVersion);
    return this.registry
      .all()
      .find((s) => s.def.kind === ref.kind && s.def.group === group && s.def.version === version);
  }

  /** Current dependents of `uid` in `namespace` (any namespace for cluster-scoped owners), read fresh. */
  private async dependents(namespace: string, uid: string): Promise<[GenericStore, ApiObject][]> {
    const found: [GenericStore, ApiObject][] = [];
    for (const ref of [...(this.byOwner.get(uid)?.values() ?? [])]) {
      if (namespace && ref.namespace !== namespace) continue;
      try {
        const obj = await ref.store.get(ref.namespace, ref.name);
        if ((obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid)) found.push([ref.store, obj]);
      } catch (err) {
        ignoreMissing(err);
      }
    }
    return found;
  }

  private async process(task: OwnerTask): Promise<void> {
    let owner: ApiObject | null = null;
    try {
      owner = await task.store.get(task.namespace, task.name);
      if (owner.metadata.uid !== task.uid) owner = null;
    } catch (err) {
      ignoreMissing(err);
    }
    const dependents = await this.dependents(task.namespace, task.uid);
    const finalizers = owner?.metadata.finalizers ?? [];
    if (owner && finalizers.includes(ORPHAN_FINALIZER)) {
      for (const [store, dep] of dependents) await this.dropReference(store, dep, [task.uid]);
      await this.removeFinalizer(task, ORPHAN_FINALIZER);
    } else if (owner && finalizers.includes(FOREGROUND_FINALIZER)) {
      if (dependents.length) {
        for (const [store, dep] of dependents) {
          await deleteObject(store, dep.metadata.namespace ?? '', dep.metadata.name ?? '', {
            propagationPolicy: 'Foreground',
          }).catch(ignoreMissing);
        }
        throw new Error(`waiting for ${dependents.length} dependents of ${task.name} to go`); // retried with backoff
      }
      await this.removeFinalizer(task, FOREGROUND_FINALIZER);
    } else if (!owner) {
      for (const [store, dep] of dependents) {
        const alive = await this.liveOwners(dep, task.uid);
        if (alive.length)
          await this.dropReference(
            store,
            dep,
            (dep.metadata.ownerReferences ?? []).filter((r) => !alive.includes(r)).map((r) => r.uid),
          );
        else
          await deleteObject(store, dep.metadata.namespace ?? '', dep.metadata.name ?? '', {
            propagationPolicy: 'Background',
            preconditions: { uid: dep.metadata.uid },
          }).catch(ignoreMissing);
      }
    }
  }

  /** The owner references of `dep` whose owners still exist (excluding `goneUid`). */
  private async liveOwners(dep: ApiObject, goneUid: string): Promise<OwnerReference[]> {
    const alive: OwnerReference[] = [];
    for (const ref of dep.metadata.ownerReferences ?? []) {
      if (ref.uid === goneUid) continue;
      const store = this.storeOf(ref);
      if (!store) {
        alive.push(ref); // an owner of a kind this server does not serve: leave it alone
        continue;
      }
      try {
        const owner = await store.get(store.def.namespaced ? (dep.metadata.namespace ?? '') : '', ref.name);
        if (owner.metadata.uid === ref.uid) alive.push(ref);
      } catch (err) {
        ignoreMissing(err);
      }
    }
    return alive;
  }

  private async dropReference(store: GenericStore, dep: ApiObject, uids: string[]): Promise<void> {
    await store
      .update(dep.metadata.namespace ?? '', dep.metadata.name ?? '', (cur) => ({
        ...cur,
        metadata: {
          ...cur.metadata,
          ownerReferences: (cur.metadata.ownerReferences ?? []).filter((r) => !uids.includes(r.uid)),
        },
      }))
      .catch(ignoreMissing);
  }

  private async removeFinalizer(task: OwnerTask, finalizer: string): Promise<void> {
    await task.store
      .update(task.namespace, task.name, (cur) => ({
        ...cur,
        metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer) },
      }))
      .catch(ignoreMissing);
  }
}

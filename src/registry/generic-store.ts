/**
 * One generic store serving every kind from its ResourceDefinition (upstream
 * k8s.io/apiserver pkg/registry/generic/registry/store.go): create, get, list, watch, update
 * (PUT and patch share it through an update function) and the subresource writes. The delete
 * verb lives in `deletion.ts`, which calls `remove`. Every storage failure is translated once,
 * by `toApiError`.
 */
import { deepCopy, keep, kept, setOwn, type ApiList, type ApiObject } from '../api/object.js';
import { checkSchema } from '../api/field-validation.js';
import { badRequest, conflict, invalid, OPTIMISTIC_LOCK_MESSAGE } from '../errors/api-error.js';
import type { FieldError } from '../api/validation/field-errors.js';
import type { ListResult, ObjectStorage, WatchEvent } from '../storage/types.js';
import type { ListQuery, WatchQuery, WriteOptions } from './store-options.js';
import { parseResourceVersion } from '../storage/object-store.js';
import { mapWatch } from '../storage/map-watch.js';
import { beforeCreate, beforeUpdate, validateObjectMeta } from './metadata.js';
import { trackWrite } from './field-manager.js';
import { runBefore, runMutating, type StoreHooks, type Undo } from './hooks.js';
import { toApiError, type ErrorContext } from './translate-error.js';
import { apiVersionOf, type MutateOptions, type ResourceDefinition, type ResourceStore, type SubresourceDefinition } from './types.js';

/** Computes the new object from the stored one (PUT returns the body; PATCH applies the patch). */
export type UpdateFunction = (old: ApiObject) => ApiObject | Promise<ApiObject>;

export class GenericStore implements ResourceStore {
  readonly apiVersion: string;
  /** Admission hooks, in the order installed (see admission/install.ts). */
  private readonly hooks: StoreHooks[] = [];
  /**
   * Storage's watch events as this store presents them, one per storage event: a watch cache
   * hands all watchers the same event, and they keep receiving the same presented one (so
   * the watch handler encodes it once).
   */
  private readonly presentedEvents = new WeakMap<WatchEvent, WatchEvent>();
  /**
   * Where a stored object keeps this store's list item (see {@link listItem}). One per store:
   * a stored object served at two group versions (RBAC, SCC) has an item, and so an encoding
   * with selfLinks, for each.
   */
  private readonly listItemSlot = Symbol('listItem');

  constructor(
    readonly def: ResourceDefinition,
    private readonly storage: ObjectStorage,
  ) {
    this.apiVersion = apiVersionOf(def);
  }

  /**
   * Install an admission plugin: its steps run on every write of this store after those
   * installed before it (upstream's plugin order is the order of the calls).
   */
  addAdmission(hook: StoreHooks): void {
    this.hooks.push(hook);
  }

  /** Relative storage key of an object. */
  key(namespace: string, name: string): string {
    return this.def.namespaced ? `${this.def.storagePrefix}/${namespace}/${name}` : `${this.def.storagePrefix}/${name}`;
  }

  /** Relative key prefix of a list: one namespace, or every namespace when `namespace` is ''. */
  keyPrefix(namespace: string): string {
    return this.def.namespaced && namespace ? `${this.def.storagePrefix}/${namespace}/` : `${this.def.storagePrefix}/`;
  }

  /**
   * `obj` as a list item: without apiVersion and kind, as upstream's typed lists. The same
   * stored object (a watch cache hands out shared ones) always gives the same item, so its
   * encoding can be kept (see the list handler). Items are shared: read them, never change them.
   */
  listItem(obj: ApiObject): ApiObject {
    const memo = kept<ApiObject>(obj, this.listItemSlot);
    if (memo) return memo;
    // Copied key by key, not by a rest pattern: a copy made by a spread or rest that sees many
    // shapes can get a hidden class of its own in V8, which makes every later read of it slow.
    const item: Record<string, unknown> = {};
    for (const k of Object.keys(obj)) if (k !== 'apiVersion' && k !== 'kind') setOwn(item, k, (obj as Record<string, unknown>)[k]);
    return keep(obj, this.listItemSlot, item as ApiObject);
  }

  /** Stamp apiVersion and kind of this definition on an object read from storage. */
  present(obj: ApiObject): ApiObject {
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    return { kind: this.def.kind, apiVersion: this.apiVersion, ...rest } as ApiObject;
  }

  /**
   * Create `body` in `namespace`. Returns the stored object (with resourceVersion; a dry run
   * returns it without one, as upstream). Throws ApiError: 400 namespace mismatch, 422 Invalid,
   * 409 AlreadyExists, and admission errors.
   */
  async create(namespace: string, body: ApiObject, opts: WriteOptions = {}): Promise<ApiObject> {
    let obj = deepCopy(body);
    obj.metadata ??= {};
    this.checkFields(obj, opts);
    this.def.strategy.defaults?.(obj);
    if (opts.fieldManager) obj = trackWrite(this.def, null, obj, opts.fieldManager);
    const dryRun = Boolean(opts.dryRun);
    beforeCreate(this.def, namespace, obj);
    const admission = { dryRun, user: opts.user, requestName: opts.requestName ?? '' };
    await runMutating(this.hooks, obj, null, admission);
    this.def.strategy.prepareForCreate?.(obj);
    this.assertValid(obj, [...validateObjectMeta(this.def, obj), ...(this.def.strategy.validate?.(obj) ?? [])]);
    const undo = await runBefore(this.hooks, obj, null, admission);
    const ctx = this.ctx(obj.metadata.name ?? '', 'POST');
    try {
      return this.present(await this.storage.create(this.key(obj.metadata.namespace ?? '', obj.metadata.name!), obj, { dryRun }));
    } catch (err) {
      await undo();
      throw toApiError(err, ctx);
    }
  }

  /**
   * Read one object; a `resourceVersion` other than '' / '0' must not be newer than the store
   * (waits up to 3 s, then 504). Throws ApiError 400 (malformed version), 404, 504.
   */
  async get(namespace: string, name: string, resourceVersion = ''): Promise<ApiObject> {
    try {
      return this.present(await this.storage.get(this.key(namespace, name), { resourceVersion }));
    } catch (err) {
      throw toApiError(err, this.ctx(name, 'GET'));
    }
  }

  /** List objects of one namespace ('' = all) matching the query. Throws ApiError 400/410. */
  async list(namespace: string, query: ListQuery): Promise<ApiList> {
    let res: ListResult;
    try {
      res = await this.storage.list(this.keyPrefix(namespace), {
        limit: query.limit,
        continueToken: query.continueToken,
        resourceVersion: query.resourceVersion,
        resourceVersionMatch: query.resourceVersionMatch,
        predicate: query.predicate.empty ? undefined : query.predicate.matches,
        // remainingItemCount is an estimate that only label/field selectors suppress.
        hasSelector: query.predicate.label.length + query.predicate.field.length > 0,
        indexValues: query.predicate.indexValues,
      });
    } catch (err) {
      throw toApiError(err, this.ctx('', 'LIST'));
    }
    const metadata: ApiList['metadata'] = { resourceVersion: res.resourceVersion };
    if (res.continue) metadata.continue = res.continue;
    if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount;
    return {
      kind: `${this.def.kind}List`,
      apiVersion: this.apiVersion,
      metadata,
      items: res.items.map((item) => this.listItem(item)),
    };
  }

  /**
   * Watch one namespace ('' = all), or one object when `name` is set. Events carry objects
   * with apiVersion/kind. Throws ApiError 400 for a malformed resourceVersion; the stream
   * throws ApiError (410 compacted, 503/504 storage lost).
   */
  watch(namespace: string, name: string, query: WatchQuery): AsyncIterable<WatchEvent> {
    let rv: number;
    try {
      rv = parseResourceVersion(query.resourceVersion);
    } catch (err) {
      throw toApiError(err, this.ctx(name, 'WATCH'));
    }
    const { predicate } = query;
    const source = this.storage.watch(name ? this.key(namespace, name) : this.keyPrefix(namespace), {
      recursive: !name,
      resourceVersion: rv,
      predicate: predicate.empty && !name ? undefined : predicate.matches,
      indexValues: predicate.indexValues,
      consistent: query.resourceVersion === '',
      sendInitialEvents: query.sendInitialEvents,
      initialEventsEndBookmark: query.initialEventsEndBookmark,
      signal: query.signal,
      onProgress: query.onProgress,
    });
    return mapWatch(source, this.presentEvent, name ? (err) => toApiError(err, this.ctx(name, 'WATCH')) : this.watchError);
  }

  /** A storage watch event as this store presents it (one per event, shared by its watchers). */
  private readonly presentEvent = (ev: WatchEvent): WatchEvent => {
    let out = this.presentedEvents.get(ev);
    if (!out) this.presentedEvents.set(ev, (out = { type: ev.type, object: this.present(ev.object) }));
    return out;
  };

  /** A failure of a collection watch as an ApiError (shared by every such watch). */
  private readonly watchError = (err: unknown): unknown => toApiError(err, this.ctx('', 'WATCH'));

  /**
   * Update an object through `update` (retried on storage conflicts). A resourceVersion in the
   * new object must match the stored one (409 Conflict otherwise). `subresource` restricts the
   * write to that subresource's part. A dry run answers the result at the stored
   * resourceVersion without writing it. Throws ApiError 404, 409, 422.
   */
  async update(namespace: string, name: string, update: UpdateFunction, subresource?: SubresourceDefinition, opts: WriteOptions = {}): Promise<ApiObject> {
    const ctx = this.ctx(name, 'PUT');
    // Hooks run inside the retry loop; what an attempt that lost the race prepared is undone.
    let undo: Undo | undefined;
    let previous: ApiObject | undefined;
    let attempt = 0;
    const dryRun = Boolean(opts.dryRun);
    try {
      const stored = await this.storage.guaranteedUpdate(this.key(namespace, name), async (current) => {
        await undo?.();
        undo = undefined;
        const old = current as ApiObject;
        previous = old;
        const view = subresource?.present ? subresource.present(old) : old;
        const requested = deepCopy(await update(deepCopy(view)));
        requested.metadata ??= {};
        if (subresource?.validate) this.assertValid(requested, subresource.validate(requested));
        else this.checkFields(requested, attempt++ === 0 ? opts : { ...opts, warnings: undefined });
        const rv = requested.metadata.resourceVersion;
        if (rv && rv !== old.metadata.resourceVersion) throw conflict(this.def.plural, name, OPTIMISTIC_LOCK_MESSAGE, this.def.group);
        if (!subresource?.present) this.def.strategy.defaults?.(requested);
        let obj = subresource?.merge ? subresource.merge(requested, old) : requested;
        if (opts.fieldManager) obj = trackWrite(this.def, old, obj, opts.fieldManager, subresource);
        const admission = { dryRun, subresource: subresource?.name, user: opts.user, requestName: name };
        await runMutating(this.hooks, obj, old, admission);
        const errs = beforeUpdate(this.def, obj, old);
        if (!subresource || subresource.useMainStrategy) this.def.strategy.prepareForUpdate?.(obj, old);
        this.assertValid(obj, [
          ...errs,
          ...validateObjectMeta(this.def, obj),
          ...(this.def.strategy.validateUpdate?.(obj, old) ?? []),
        ]);
        undo = await runBefore(this.hooks, obj, old, admission);
        delete obj.metadata.resourceVersion;
        if (emptiedFinalizers(obj)) throw new DeleteInstead(obj, old);
        return obj;
      }, { dryRun });
      if (!dryRun) for (const h of this.hooks) if (previous && stored !== previous) await h.afterUpdate?.(stored, previous);
      return this.present(stored);
    } catch (err) {
      if (err instanceof DeleteInstead) {
        // Upstream store.go deleteWithoutFinalizers: the update that removed the last finalizer
        // of an object marked for deletion deletes it instead (watchers see DELETED).
        const old = err.old.metadata;
        await this.remove(namespace, name, { preconditions: { uid: old.uid, resourceVersion: old.resourceVersion }, dryRun, operation: 'PUT' });
        return this.present(err.obj);
      }
      await undo?.();
      throw toApiError(err, ctx);
    }
  }

  /**
   * A guaranteed update of the stored object by `change`, without the kind's strategy or
   * admission: what deletion (marking) and binding write. Returns the object as stored (a dry
   * run: as it would be). Throws ApiError 404, 409 (precondition), and what `change` throws.
   */
  async mutate(namespace: string, name: string, change: (current: ApiObject) => ApiObject | Promise<ApiObject>, opts: MutateOptions = {}): Promise<ApiObject> {
    try {
      const stored = await this.storage.guaranteedUpdate(this.key(namespace, name), (cur) => change(cur as ApiObject), opts);
      return this.present(stored);
    } catch (err) {
      throw toApiError(err, this.ctx(name, opts.operation ?? 'PUT'));
    }
  }

  /**
   * Remove an object from storage once its preconditions hold, then run the afterDelete hooks
   * (not on a dry run, which only checks). Returns the object as it was. Throws ApiError 404, 409.
   */
  async remove(namespace: string, name: string, opts: MutateOptions = {}): Promise<ApiObject> {
    let deleted: ApiObject;
    try {
      deleted = this.present(await this.storage.delete(this.key(namespace, name), opts));
    } catch (err) {
      throw toApiError(err, this.ctx(name, opts.operation ?? 'DELETE'));
    }
    if (!opts.dryRun) for (const h of this.hooks) await h.afterDelete?.(deleted);
    return deleted;
  }

  /** Error context for this resource. */
  ctx(name: string, operation: ErrorContext['operation']): ErrorContext {
    return { resource: this.def.plural, group: this.def.group, name, operation };
  }

  /**
   * Check `obj` against the kind's schema, removing unknown fields: 422 for type and value
   * problems; unknown (and duplicate) fields are 400 under Strict, warnings under Warn, silent
   * under Ignore.
   */
  private checkFields(obj: ApiObject, opts: WriteOptions): void {
    const { errors, unknown } = checkSchema(this.def.schema, obj);
    const mode = opts.fieldValidation ?? 'Warn';
    const strict = [...unknown.map((f) => `unknown field "${f}"`), ...(opts.duplicateFields ?? [])];
    if (strict.length && mode === 'Strict') throw badRequest(`strict decoding error: ${strict.join(', ')}`);
    if (mode === 'Warn') for (const w of strict) opts.warnings?.push(w);
    this.assertValid(obj, errors);
  }

  private assertValid(obj: ApiObject, errs: FieldError[]): void {
    if (errs.length) throw invalid(this.def.kind, obj.metadata.name ?? '', errs, this.def.group);
  }
}

/** Raised inside an update whose result must be deleted rather than stored. */
class DeleteInstead extends Error {
  constructor(
    readonly obj: ApiObject,
    readonly old: ApiObject,
  ) {
    super('finalizers emptied');
  }
}

/** Marked for deletion with no grace left and no finalizers: the object must go. */
function emptiedFinalizers(obj: ApiObject): boolean {
  const m = obj.metadata;
  return Boolean(m.deletionTimestamp) && m.deletionGracePeriodSeconds === 0 && !(m.finalizers ?? []).length;
}

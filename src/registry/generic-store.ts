/**
 * One generic store serving every kind from its ResourceDefinition (upstream
 * k8s.io/apiserver pkg/registry/generic/registry/store.go): create, get, list, watch, update
 * (PUT and patch share it through an update function) and the subresource writes. The delete
 * verb lives in `deletion.ts`, which calls `remove`. Every storage failure is translated once,
 * by `toApiError`.
 */
import { deepCopy, keep, kept, setOwn, type ApiList, type ApiObject } from '../api/object.js';
import { checkSchema } from '../api/field-validation.js';
import { ApiError, badRequest, conflict, invalid, OPTIMISTIC_LOCK_MESSAGE } from '../errors/api-error.js';
import { formatValue, type FieldError } from '../api/validation/field-errors.js';
import type { ListResult, ObjectStorage, WatchEvent } from '../storage/types.js';
import type { ListQuery, WatchQuery, WriteOptions } from './store-options.js';
import { parseResourceVersion } from '../storage/object-store.js';
import { mapWatch } from '../storage/map-watch.js';
import { StorageError } from '../storage/storage-error.js';
import { beforeCreate, beforeUpdate, validateObjectMeta } from './metadata.js';
import { buildPredicate } from './predicate.js';
import { trackWrite } from './field-manager.js';
import {
  deleteOptionsObject,
  operationOptions,
  runBefore,
  runMutating,
  type AdmissionAttributes,
  type AdmissionOperation,
  type DeleteRequest,
  type StoreHooks,
  type Undo,
} from './hooks.js';
import { toApiError, type ErrorContext } from './translate-error.js';
import {
  apiVersionOf,
  type MutateOptions,
  type ResourceDefinition,
  type ResourceStore,
  type SubresourceDefinition,
} from './types.js';

/**
 * Computes the requested object from the stored one (PUT returns the body; PATCH applies the
 * patch). It receives the stored object (of the kind's type `T`), or a subresource's own view
 * of it (a Scale); what it returns is a request, checked against the schema next.
 */
export type UpdateFunction<T extends ApiObject = ApiObject> = (old: T) => ApiObject | Promise<ApiObject>;

/**
 * The store of one resource. `T` is the kind's object type (KindObject of its schema, see
 * ResourceRegistry.of); stores held by the table are of ApiObject.
 */
export class GenericStore<T extends ApiObject = ApiObject> implements ResourceStore<T> {
  readonly apiVersion: string;
  /** Admission hooks, in the order installed (see admission/install.ts). */
  private readonly hooks: StoreHooks<T>[] = [];
  /**
   * Storage's watch events as this store presents them, one per storage event: a watch cache
   * hands all watchers the same event, and they keep receiving the same presented one (so
   * the watch handler encodes it once).
   */
  private readonly presentedEvents = new WeakMap<WatchEvent, WatchEvent<T>>();
  /**
   * Where a stored object keeps this store's list item (see {@link listItem}). One per store:
   * a stored object served at two group versions (RBAC, SCC) has an item, and so an encoding
   * with selfLinks, for each.
   */
  private readonly listItemSlot = Symbol('listItem');

  constructor(
    readonly def: ResourceDefinition<T>,
    private readonly storage: ObjectStorage,
  ) {
    this.apiVersion = apiVersionOf(def);
  }

  /**
   * Install an admission plugin: its steps run on every write of this store after those
   * installed before it (upstream's plugin order is the order of the calls).
   */
  addAdmission(hook: StoreHooks<T>): void {
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
  listItem(obj: T): T {
    const memo = kept<T>(obj, this.listItemSlot);
    if (memo) return memo;
    // Copied key by key, not by a rest pattern: a copy made by a spread or rest that sees many
    // shapes can get a hidden class of its own in V8, which makes every later read of it slow.
    const served = this.def.conversion ? this.def.conversion.fromStorage(obj) : obj;
    const item: Record<string, unknown> = {};
    // Unstructured lists (custom resources) keep each item's apiVersion and kind.
    if (this.def.unstructured) Object.assign(item, { apiVersion: this.apiVersion, kind: this.def.kind });
    for (const k of Object.keys(served)) if (k !== 'apiVersion' && k !== 'kind') setOwn(item, k, served[k]);
    return keep(obj, this.listItemSlot, this.ofKind(item));
  }

  /**
   * An object read from storage as this definition serves it: converted to its version (when
   * it is served over another version's storage), with its apiVersion and kind.
   */
  present(obj: ApiObject): T {
    const { apiVersion: _a, kind: _k, ...rest } = this.def.conversion ? this.def.conversion.fromStorage(obj) : obj;
    return this.ofKind({ kind: this.def.kind, apiVersion: this.apiVersion, ...rest });
  }

  /**
   * A checked request as stored: its version's defaults, then (for a version served over
   * another's storage) converted into the storage version. What follows (admission, the
   * strategy, validation) sees stored objects.
   */
  private defaulted(obj: T): T {
    const conversion = this.def.conversion;
    if (!conversion) {
      this.def.strategy.defaults?.(obj);
      return obj;
    }
    conversion.defaults?.(obj);
    return this.ofKind(conversion.toStorage(obj));
  }

  /**
   * The stored object an update works on. Storage calls an update with null only when it may
   * create the object, which no update of a store asks for.
   */
  private storedOf(current: ApiObject | null): T {
    if (current === null) throw new StorageError('KeyNotFound', '', 'the object to update is not stored');
    return this.ofKind(current);
  }

  /**
   * The one conversion to the kind's type: what this store hands out was written through it,
   * so it passed the kind's schema (or, for a request, has just been checked against it).
   */
  private ofKind(obj: Readonly<Record<string, unknown>>): T {
    return obj as T;
  }

  /**
   * Create `body` in `namespace`. Returns the stored object (with resourceVersion; a dry run
   * returns it without one, as upstream). Throws ApiError: 400 namespace mismatch, 422 Invalid,
   * 409 AlreadyExists, and admission errors.
   */
  async create(namespace: string, body: ApiObject, opts: WriteOptions = {}): Promise<T> {
    const request = deepCopy(body);
    request.metadata ??= {};
    let obj = this.defaulted(this.checkFields(request, opts));
    if (opts.fieldManager) obj = trackWrite(this.def, null, obj, opts.fieldManager);
    const dryRun = Boolean(opts.dryRun);
    beforeCreate(this.def, namespace, obj);
    const admission = this.admission('CREATE', obj, opts, {
      requestName: opts.requestName ?? '',
      options: operationOptions('CreateOptions', opts),
    });
    await runMutating(this.hooks, obj, null, admission);
    this.def.strategy.prepareForCreate?.(obj);
    this.assertValid(obj, [...validateObjectMeta(this.def, obj), ...(this.def.strategy.validate?.(obj) ?? [])]);
    const undo = await runBefore(this.hooks, obj, null, admission);
    const ctx = this.ctx(obj.metadata.name ?? '', 'POST');
    try {
      return this.present(
        await this.storage.create(this.key(obj.metadata.namespace ?? '', obj.metadata.name!), obj, { dryRun }),
      );
    } catch (err) {
      await undo();
      throw toApiError(err, ctx);
    }
  }

  /**
   * Read one object; a `resourceVersion` other than '' / '0' must not be newer than the store
   * (waits up to 3 s, then 504). Throws ApiError 400 (malformed version), 404, 504.
   */
  async get(namespace: string, name: string, resourceVersion = ''): Promise<T> {
    try {
      return this.present(await this.storage.get(this.key(namespace, name), { resourceVersion }));
    } catch (err) {
      throw toApiError(err, this.ctx(name, 'GET'));
    }
  }

  /** List objects of one namespace ('' = all) matching the query. Throws ApiError 400/410. */
  async list(namespace: string, query: ListQuery): Promise<ApiList<T>> {
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
      items: res.items.map((item) => this.listItem(this.ofKind(item))),
    };
  }

  /** Every object of `namespace` ('' = all), consistently read (ResourceStore.items). Throws ApiError as list does. */
  async items(namespace: string): Promise<T[]> {
    return (await this.list(namespace, { predicate: buildPredicate(this.def) })).items;
  }

  /**
   * Watch one namespace ('' = all), or one object when `name` is set. Events carry objects
   * with apiVersion/kind. Throws ApiError 400 for a malformed resourceVersion; the stream
   * throws ApiError (410 compacted, 503/504 storage lost).
   */
  watch(namespace: string, name: string, query: WatchQuery): AsyncIterable<WatchEvent<T>> {
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
    return mapWatch(
      source,
      this.presentEvent,
      name ? (err) => toApiError(err, this.ctx(name, 'WATCH')) : this.watchError,
    );
  }

  /** A storage watch event as this store presents it (one per event, shared by its watchers). */
  private readonly presentEvent = (ev: WatchEvent): WatchEvent<T> => {
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
  async update(
    namespace: string,
    name: string,
    update: UpdateFunction<T>,
    subresource?: SubresourceDefinition<T>,
    opts: WriteOptions = {},
  ): Promise<T> {
    const ctx = this.ctx(name, 'PUT');
    // Hooks run inside the retry loop; what an attempt that lost the race prepared is undone.
    let undo: Undo | undefined;
    let previous: T | undefined;
    let attempt = 0;
    const dryRun = Boolean(opts.dryRun);
    try {
      const stored = await this.storage.guaranteedUpdate(
        this.key(namespace, name),
        async (current) => {
          await undo?.();
          undo = undefined;
          const old = this.storedOf(current);
          previous = old;
          // A subresource with a view of its own (Scale) hands the update its view; the one
          // writing through it (the handlers) holds the store as a store of ApiObject.
          const requested = deepCopy(
            await (subresource?.present
              ? (update as UpdateFunction)(deepCopy(subresource.present(old)))
              : update(deepCopy(this.def.conversion ? this.present(old) : old))),
          );
          requested.metadata ??= {};
          // A view checked by its own rules (Scale) is only used through its subresource's merge.
          const checked = subresource?.validate
            ? this.assertValid(requested, subresource.validate(requested))
            : this.checkFields(requested, attempt++ === 0 ? opts : { ...opts, warnings: undefined });
          const rv = requested.metadata.resourceVersion;
          if (rv && rv !== old.metadata.resourceVersion)
            throw conflict(this.def.plural, name, OPTIMISTIC_LOCK_MESSAGE, this.def.group);
          const defaulted = subresource?.present ? checked : this.defaulted(checked);
          let obj = subresource?.merge
            ? subresource.merge(subresource.present ? requested : defaulted, old)
            : defaulted;
          if (opts.fieldManager) obj = trackWrite(this.def, old, obj, opts.fieldManager, subresource);
          const admission = this.admission('UPDATE', obj, opts, {
            subresource: subresource?.name,
            requestName: name,
            options: operationOptions(opts.strictErrorAs === 'patch' ? 'PatchOptions' : 'UpdateOptions', opts),
          });
          await runMutating(this.hooks, obj, old, admission);
          const errs = beforeUpdate(this.def, obj, old);
          if (!subresource || subresource.useMainStrategy) this.def.strategy.prepareForUpdate?.(obj, old);
          this.assertValid(obj, [
            ...errs,
            ...validateObjectMeta(this.def, obj),
            ...((subresource?.validateUpdate
              ? subresource.validateUpdate(obj, old)
              : this.def.strategy.validateUpdate?.(obj, old)) ?? []),
          ]);
          undo = await runBefore(this.hooks, obj, old, admission);
          delete obj.metadata.resourceVersion;
          if (emptiedFinalizers(obj)) throw new DeleteInstead(obj, old);
          return obj;
        },
        { dryRun },
      );
      if (!dryRun)
        for (const h of this.hooks)
          if (previous && stored !== previous) await h.afterUpdate?.(this.ofKind(stored), previous);
      return this.present(stored);
    } catch (err) {
      if (err instanceof DeleteInstead) {
        // Upstream store.go deleteWithoutFinalizers: the update that removed the last finalizer
        // of an object marked for deletion deletes it instead (watchers see DELETED).
        const old = err.old.metadata;
        await this.remove(namespace, name, {
          preconditions: { uid: old.uid, resourceVersion: old.resourceVersion },
          dryRun,
          operation: 'PUT',
        });
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
  async mutate(
    namespace: string,
    name: string,
    change: (current: T) => T | Promise<T>,
    opts: MutateOptions = {},
  ): Promise<T> {
    try {
      const stored = await this.storage.guaranteedUpdate(
        this.key(namespace, name),
        (cur) => change(this.storedOf(cur)),
        opts,
      );
      return this.present(stored);
    } catch (err) {
      throw toApiError(err, this.ctx(name, opts.operation ?? 'PUT'));
    }
  }

  /**
   * Remove an object from storage once its preconditions hold, then run the afterDelete hooks
   * (not on a dry run, which only checks). Returns the object as it was. Throws ApiError 404, 409.
   */
  async remove(namespace: string, name: string, opts: MutateOptions = {}): Promise<T> {
    let deleted: T;
    try {
      deleted = this.present(await this.storage.delete(this.key(namespace, name), opts));
    } catch (err) {
      throw toApiError(err, this.ctx(name, opts.operation ?? 'DELETE'));
    }
    if (!opts.dryRun) for (const h of this.hooks) await h.afterDelete?.(deleted);
    return deleted;
  }

  /**
   * Admission of a delete of `obj` (the stored object; upstream's deleteValidation, which
   * admission webhooks extend): every hook's `beforeDelete`, in order, on a dry run too. Throws
   * what a hook throws (ApiError).
   */
  async admitDelete(obj: T, req: DeleteRequest): Promise<void> {
    const attrs = this.admission('DELETE', obj, req, { options: deleteOptionsObject(req) });
    for (const h of this.hooks) await h.beforeDelete?.(obj, attrs);
  }

  /**
   * The admission attributes of a write of `obj` by `opts` (who, dry run, where warnings and
   * audit annotations go) to this store's resource; `extra` adds the subresource, request name
   * and the operation's options.
   */
  private admission(
    operation: AdmissionOperation,
    obj: ApiObject,
    opts: WriteOptions | DeleteRequest,
    extra: Partial<AdmissionAttributes>,
  ): AdmissionAttributes {
    const { group, version, plural, kind } = this.def;
    return {
      dryRun: Boolean(opts.dryRun),
      user: opts.user,
      operation,
      resource: { group, version, resource: plural },
      kind: { group, version, kind },
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name ?? '',
      warnings: opts.warnings,
      addAuditAnnotation: opts.addAuditAnnotation,
      ...extra,
    };
  }

  /** Error context for this resource. */
  ctx(name: string, operation: ErrorContext['operation']): ErrorContext {
    return { resource: this.def.plural, group: this.def.group, name, operation };
  }

  /**
   * Check `obj` against the kind's schema, removing unknown fields: 422 for type and value
   * problems; unknown (and duplicate) fields are 400 under Strict, warnings under Warn, silent
   * under Ignore. Returns `obj`, now of the kind's type.
   */
  private checkFields(obj: ApiObject, opts: WriteOptions): T {
    const mode = opts.fieldValidation ?? 'Warn';
    // The patched object as sent, for a strict patch's error (the check removes unknown fields).
    const patched = mode === 'Strict' && opts.strictErrorAs === 'patch' ? goJson(obj) : '';
    const { errors, unknown } = this.def.fieldCheck ? this.def.fieldCheck(obj) : checkSchema(this.def.schema, obj);
    const strict = [...unknown.map((f) => `unknown field "${f}"`), ...(opts.duplicateFields ?? [])];
    if (strict.length && mode === 'Strict') throw this.strictDecodingError(strict.join(', '), opts, patched);
    if (mode === 'Warn') for (const w of strict) opts.warnings?.push(w);
    return this.assertValid(obj, errors);
  }

  /** A strict decoding failure as upstream's handler of the request answers it (WriteOptions.strictErrorAs). */
  private strictDecodingError(problems: string, opts: WriteOptions, patched: string): ApiError {
    const message = `strict decoding error: ${problems}`;
    if (opts.strictErrorAs === 'patch') {
      const cause: FieldError = {
        reason: 'FieldValueInvalid',
        field: 'patch',
        message: `Invalid value: ${formatValue(patched)}: ${message}`,
      };
      return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${cause.message}`, { causes: [cause] });
    }
    if (opts.strictErrorAs === 'body') {
      const { kind, version } = this.def;
      return badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${message}`);
    }
    return badRequest(message);
  }

  /** Throws 422 Invalid for `errs`; returns `obj` (of the kind's type) when there are none. */
  private assertValid(obj: ApiObject, errs: FieldError[]): T {
    if (errs.length) throw invalid(this.def.kind, obj.metadata.name ?? '', errs, this.def.group);
    return this.ofKind(obj);
  }
}

/** Raised inside an update whose result must be deleted rather than stored. */
class DeleteInstead<T extends ApiObject> extends Error {
  constructor(
    readonly obj: T,
    readonly old: T,
  ) {
    super('finalizers emptied');
  }
}

/** Marked for deletion with no grace left and no finalizers: the object must go. */
function emptiedFinalizers(obj: ApiObject): boolean {
  const m = obj.metadata;
  return Boolean(m.deletionTimestamp) && m.deletionGracePeriodSeconds === 0 && !(m.finalizers ?? []).length;
}

/** JSON as Go's encoding/json writes a decoded object: map keys sorted, at every level. */
function goJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * Generic handlers for the non-streaming verbs: get, list, create, update, patch, delete and
 * deletecollection, for any resource of the table and its subresources.
 */
import { exportObject } from '../../registry/export.js';
import { isUninitialized } from '../../registry/predicate.js';
import { parseBool } from '../request-info.js';
import { deleteCollection, deleteObject } from '../../registry/deletion.js';
import type { WriteOptions } from '../../registry/store-options.js';
import { checkSchema, parseFieldValidation, type FieldValidation } from '../../api/field-validation.js';
import { badRequest, invalid } from '../../errors/api-error.js';
import { managerOrUserAgent, validateFieldManager, validatePatchManagerOptions } from '../../api/apply/manager-name.js';
import { handleApply } from './apply.js';
import type { VerbTarget } from './verb-target.js';
import type { ApiContext } from '../context.js';
import { mediaTypeOf } from '../negotiation/media-types.js';
import {
  APPLY_PATCH,
  JSON_PATCH,
  patchObject,
  parsePatch,
  patchMediaType,
  patchTypeOf,
} from '../patch/patch-object.js';
import { jsonDuplicateKeys } from '../../api/json-duplicates.js';
import { checkNameAndNamespace, decodeRequestBody, hasRequestBody, readObjectBody } from './body.js';
import { deleteOptions, listQuery, parseDryRun, queryValue, queryValues, type OptionsKind } from './query.js';
import type { ApiObject } from '../../api/object.js';
import { addAuditAnnotation } from '../../audit/annotations.js';
import type { DeleteRequest } from '../../registry/hooks.js';
import {
  listWithSelfLinks,
  objectPath,
  respond,
  respondList,
  respondMetadataOnly,
  respondTable,
  withSelfLink,
} from './respond.js';

export type { VerbTarget };

/** The kinds the server knows, for the messages of a body of another kind or version. */
const knownKinds = (t: VerbTarget) => (apiVersion: string, kind: string) => t.registry.servesKind(apiVersion, kind);

/** What a write or read of `t` answers: the object, or its subresource's view. */
function present(t: VerbTarget, obj: ApiObject): ApiObject {
  if (!t.subresource?.present) return withSelfLink(t.store, obj);
  const view = t.subresource.present(obj);
  return {
    ...view,
    metadata: {
      ...view.metadata,
      selfLink: `${objectPath(t.store, obj.metadata.namespace, obj.metadata.name ?? '')}/${t.subresource.name}`,
    },
  };
}

/**
 * Write options from the query (dryRun, fieldValidation, fieldManager) and the authenticated
 * user, collecting warnings: every write a client sends runs with them, so admission (RBAC
 * escalation checks among it) always knows who writes. An apply patch (`apply`) validates its
 * own fieldManager and force and records managedFields itself: no Update entry is asked for.
 * Throws ApiError 422 (dryRun other than All, a bad fieldManager), 400 (fieldValidation).
 */
function writeOptions(ctx: ApiContext, kind: OptionsKind, apply = false): WriteOptions & { warnings: string[] } {
  const dryRun = parseDryRun(queryValues(ctx, 'dryRun'), kind);
  const fieldManager = apply ? undefined : fieldManagerOf(ctx, kind);
  const fieldValidation = fieldValidationOf(ctx);
  const duplicateFields = fieldValidation === 'Ignore' ? undefined : duplicateFieldsOf(ctx);
  const strictErrorAs = apply ? undefined : kind === 'PatchOptions' ? 'patch' : 'body';
  return {
    fieldValidation,
    warnings: [],
    dryRun,
    fieldManager,
    user: ctx.state.user,
    duplicateFields,
    strictErrorAs,
    addAuditAnnotation: auditAnnotator(ctx),
  };
}

/** Adds admission's audit annotations (webhooks' auditAnnotations) to the request's audit event. */
const auditAnnotator =
  (ctx: ApiContext) =>
  (key: string, value: string): void =>
    addAuditAnnotation(ctx, key, value);

/** The DeleteOptions body of a delete, if any. */
const deleteBody = (ctx: ApiContext): unknown => (hasRequestBody(ctx) ? decodeRequestBody(ctx) : undefined);

/** A delete's options with the user, and where admission's warnings and audit annotations go. */
function deleteRequest(ctx: ApiContext): DeleteRequest & { warnings: string[] } {
  return {
    ...deleteOptions(ctx, deleteBody(ctx)),
    user: ctx.state.user,
    warnings: [],
    addAuditAnnotation: auditAnnotator(ctx),
  };
}

/**
 * Keys repeated within one object of a JSON body or patch (upstream's strict decoder reports
 * them, `json patch duplicate field "op"` for a JSON patch); none for YAML (its parser refuses
 * repeats) and protobuf. Called once the body has been accepted, so the text is valid JSON.
 */
function duplicateFieldsOf(ctx: ApiContext): string[] | undefined {
  const type = mediaTypeOf(ctx.get('Content-Type')) || 'application/json';
  const raw = ctx.state.rawBody;
  if (!raw || ctx.state.rawBuffer || !(type === 'application/json' || type.endsWith('+json'))) return undefined;
  const keys = jsonDuplicateKeys(raw);
  if (!keys.length) return undefined;
  return type === JSON_PATCH
    ? keys.map((k) => `json patch duplicate field "${k}"`)
    : keys.map((k) => `duplicate field "${k}"`);
}

/** The `fieldValidation` query (default Warn). Throws ApiError 400 for another value. */
function fieldValidationOf(ctx: ApiContext): FieldValidation {
  const raw = queryValue(ctx, 'fieldValidation');
  const fieldValidation = parseFieldValidation(raw);
  if (!fieldValidation)
    throw badRequest(`fieldValidation: Unsupported value: "${raw}": supported values: "Ignore", "Strict", "Warn"`);
  return fieldValidation;
}

/**
 * The field manager of a write: the `fieldManager` query, else the User-Agent's product
 * (upstream managerOrUserAgent). Throws ApiError 422 on `<kind>.meta.k8s.io` for a name
 * over 128 bytes or with unprintable characters, and for `force` outside an apply patch.
 */
function fieldManagerOf(ctx: ApiContext, kind: OptionsKind): string {
  const given = queryValue(ctx, 'fieldManager');
  const force = queryValue(ctx, 'force');
  const problems =
    kind === 'PatchOptions'
      ? validatePatchManagerOptions(false, given, force === undefined ? undefined : parseBool(force))
      : validateFieldManager(given ?? '');
  if (problems.length) throw invalid(kind, '', problems, 'meta.k8s.io');
  return managerOrUserAgent(given, ctx.get('User-Agent'));
}

/**
 * `Warning: 299 - "<text>"` headers, as upstream sends them: the quoted text's UTF-8 bytes go
 * on the wire as they are (Node takes header strings as Latin-1, one byte per character).
 */
function sendWarnings(ctx: ApiContext, warnings: readonly string[]): void {
  for (const w of warnings) {
    const quoted = JSON.stringify(w).replace(/\x7f/g, '\\u007f');
    ctx.append('Warning', Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1'));
  }
}

/**
 * Run a write and send the warnings it collected, also when it fails (upstream writes warnings
 * into the response headers as they are added, so a refused write carries them too).
 */
async function warnAfter<T>(ctx: ApiContext, warnings: readonly string[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    sendWarnings(ctx, warnings);
  }
}

export async function handleGet(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const obj = present(t, await t.store.get(t.namespace, t.name, queryValue(ctx, 'resourceVersion') ?? ''));
  if (
    !t.subresource &&
    respondTable(ctx, t.store, [obj], {
      resourceVersion: obj.metadata.resourceVersion,
      selfLink: obj.metadata.selfLink,
    })
  )
    return;
  if (respondMetadataOnly(ctx, obj)) return;
  respond(
    ctx,
    200,
    parseBool(queryValue(ctx, 'export')) ? exportObject(t.store, obj, parseBool(queryValue(ctx, 'exact'))) : obj,
  );
}

export async function handleList(ctx: ApiContext, t: VerbTarget): Promise<void> {
  respondList(ctx, t.store, await t.store.list(t.namespace, listQuery(ctx, t.store)));
}

/**
 * A body a kind creates itself (reviews, bindings, token requests) passes the same schema check
 * as a stored object's: wrong types are 422 before the kind's code reads them.
 */
function checkOwnCreateBody(t: VerbTarget, body: ApiObject): void {
  const schema = t.subresource ? t.subresource.schema : t.store.def.schema;
  if (!schema) return;
  const { errors } = checkSchema(schema, body);
  const group = t.subresource?.apiVersion?.includes('/') ? t.subresource.apiVersion.split('/')[0] : t.store.def.group;
  if (errors.length)
    throw invalid(t.subresource?.kind ?? t.store.def.kind, body.metadata?.name ?? t.name, errors, group);
}

export async function handleCreate(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const own = t.subresource ? t.subresource.create : t.store.def.create;
  if (own) {
    const dryRun = parseDryRun(queryValues(ctx, 'dryRun'), 'CreateOptions');
    const body = readObjectBody(
      ctx,
      t.subresource?.kind ?? t.store.def.kind,
      t.subresource?.apiVersion ?? t.store.apiVersion,
      knownKinds(t),
      t.subresource?.acceptedVersions,
    );
    if (t.subresource) checkNameAndNamespace(body, t.name, t.namespace, true);
    checkOwnCreateBody(t, body);
    const namespace = t.namespace || (body.metadata.namespace ?? '');
    const res = await own({
      namespace,
      name: t.name,
      body,
      dryRun,
      target: t.store,
      store: (def) => t.registry.of(def),
      user: ctx.state.user,
      access: t.access,
    });
    respond(ctx, res.code, res.body);
    return;
  }
  const opts = writeOptions(ctx, 'CreateOptions');
  const obj = readObjectBody(ctx, t.store.def.kind, t.store.apiVersion, knownKinds(t));
  const created = await warnAfter(ctx, opts.warnings, () => t.store.create(t.namespace, obj, opts));
  // Objects still waiting for initializers are accepted, not yet complete: 202.
  respond(ctx, isUninitialized(created) ? 202 : 201, withSelfLink(t.store, created));
}

export async function handleUpdate(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const opts = writeOptions(ctx, 'UpdateOptions');
  const obj = readObjectBody(
    ctx,
    t.subresource?.kind ?? t.store.def.kind,
    t.subresource?.apiVersion ?? t.store.apiVersion,
    knownKinds(t),
  );
  // Upstream update.go checkName: a body without a name does not match the URL's.
  checkNameAndNamespace(obj, t.name, t.namespace, t.store.def.namespaced, false);
  const updated = await warnAfter(ctx, opts.warnings, () =>
    t.store.update(t.namespace, t.name, () => obj, t.subresource, opts),
  );
  respond(ctx, 200, present(t, updated));
}

export async function handlePatch(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const mediaType = patchMediaType(ctx.get('Content-Type'));
  if (mediaType === APPLY_PATCH) {
    // Apply validates its own fieldManager and force (both required or allowed only there).
    const opts = writeOptions(ctx, 'PatchOptions', true);
    const res = await warnAfter(ctx, opts.warnings, () => handleApply(ctx, t, opts));
    respond(ctx, res.code, res.code === 201 ? withSelfLink(t.store, res.object) : present(t, res.object));
    return;
  }
  const opts = writeOptions(ctx, 'PatchOptions');
  const type = patchTypeOf(mediaType);
  const patch = parsePatch(type, ctx.state.rawBody ?? '');
  const updated = await warnAfter(ctx, opts.warnings, () =>
    t.store.update(
      t.namespace,
      t.name,
      (old) => {
        // A subresource view (Scale) has no lists of its own: no patch metadata applies.
        const next = patchObject(
          type,
          old,
          patch,
          t.subresource?.present ? undefined : t.store.def.patchMeta,
          knownKinds(t),
        );
        checkNameAndNamespace(next, t.name, t.namespace, t.store.def.namespaced);
        return next;
      },
      t.subresource,
      opts,
    ),
  );
  respond(ctx, 200, present(t, updated));
}

export async function handleDelete(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const opts = deleteRequest(ctx);
  const res = await warnAfter(ctx, opts.warnings, () => deleteObject(t.store, t.namespace, t.name, opts));
  respond(ctx, res.code, res.body.kind === 'Status' ? res.body : withSelfLink(t.store, res.body as never));
}

export async function handleDeleteCollection(ctx: ApiContext, t: VerbTarget): Promise<void> {
  const opts = deleteRequest(ctx);
  const list = await warnAfter(ctx, opts.warnings, () =>
    deleteCollection(t.store, t.namespace, listQuery(ctx, t.store), opts),
  );
  respond(ctx, 200, listWithSelfLinks(t.store, list, ctx.path));
}

/**
 * Server-side apply (`PATCH` with `application/apply-patch+yaml`; JSON is valid YAML), as
 * upstream's patch handler serves it (k8s.io/apiserver pkg/endpoints/handlers/patch.go
 * applyPatcher): `fieldManager` is required, `force` takes conflicting fields over, the
 * configuration is merged into the live object by the field manager (`registry/field-manager`)
 * and then goes through the kind's update path (defaults, validation, admission, dry run); an
 * absent object is created (201). Conflicts are 409 with one FieldManagerConflict cause per
 * field. The YAML body is read leniently (a repeated key keeps its last value); once the field
 * manager has merged it, `fieldValidation=Strict` refuses repeated keys (400 `error strict
 * decoding YAML: ...`) and `Warn` adds one warning per repeat (upstream applyPatcher
 * applyPatchToCurrentObject, handlers/rest.go addStrictDecodingWarnings).
 */
import { ApiError, badRequest, invalid } from '../../errors/api-error.js';
import { validatePatchManagerOptions } from '../../api/apply/manager-name.js';
import { conflictStatus } from '../../api/apply/conflict.js';
import { isApiObject, type ApiObject } from '../../api/object.js';
import { isRecord } from '../../api/json.js';
import { trackApply } from '../../registry/field-manager.js';
import type { WriteOptions } from '../../registry/store-options.js';
import type { ApiContext } from '../context.js';
import { yamlDuplicateKeys, yamlUnmarshalErrors } from '../../api/yaml-duplicate-keys.js';
import { decodeBody, YAML_TYPE } from '../negotiation/media-types.js';
import { parseBool } from '../request-info.js';
import { checkNameAndNamespace } from './body.js';
import { queryValue } from './query.js';
import type { VerbTarget } from './verb-target.js';

/** The apply patch's options and configuration. Throws ApiError 422 (options), 400 (body). */
function applyRequest(ctx: ApiContext, t: VerbTarget): { manager: string; force: boolean; config: ApiObject } {
  const manager = queryValue(ctx, 'fieldManager');
  const rawForce = queryValue(ctx, 'force');
  const force = rawForce === undefined ? undefined : parseBool(rawForce);
  const problems = validatePatchManagerOptions(true, manager, force);
  if (problems.length) throw invalid('PatchOptions', '', problems, 'meta.k8s.io');
  const config = decodeBody(YAML_TYPE, ctx.state.rawBody ?? '', undefined, 'last');
  if (!isRecord(config)) throw badRequest('the apply configuration must be an object');
  if (config.metadata !== undefined && !isRecord(config.metadata))
    throw badRequest('metadata of the apply configuration must be an object');
  config.metadata ??= {};
  if (!isApiObject(config)) throw badRequest('metadata of the apply configuration must be an object');
  checkNameAndNamespace(config, t.name, t.namespace, t.store.def.namespaced);
  return { manager: manager!, force: force ?? false, config };
}

/**
 * Serve an apply patch to `t` with `opts` (dry run, field validation). Answers 200 with the
 * updated object, or 201 with the created one. Throws ApiError 409 (conflicts), 400, 422.
 */
export async function handleApply(
  ctx: ApiContext,
  t: VerbTarget,
  opts: WriteOptions,
): Promise<{ code: 200 | 201; object: ApiObject }> {
  const { manager, force, config } = applyRequest(ctx, t);
  const strictYaml = strictYamlCheck(ctx.state.rawBody ?? '', opts);
  const merge = (live: ApiObject | null): ApiObject => {
    const res = trackApply(t.store.def, live, config, manager, force, t.subresource);
    if (res.status === 'conflict') {
      const status = conflictStatus(res.conflicts);
      throw new ApiError(409, 'Conflict', status.message, { causes: [...status.causes] });
    }
    // The field manager's 500s (a configuration it cannot type) are a client's input: 400.
    if (res.status === 'invalid') throw badRequest(res.message);
    strictYaml();
    if (!isApiObject(res.object)) throw badRequest('metadata of the apply configuration must be an object');
    return res.object;
  };
  // Apply sets managedFields itself: the store must not record an Update entry on top.
  const write: WriteOptions = { ...opts, fieldManager: undefined };
  try {
    return { code: 200, object: await t.store.update(t.namespace, t.name, (old) => merge(old), t.subresource, write) };
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 404 && err.details?.name === t.name) || t.subresource) throw err;
  }
  // The create of an absent object is made by a request that named it (upstream RequestInfo.Name).
  return { code: 201, object: await t.store.create(t.namespace, merge(null), { ...write, requestName: t.name }) };
}

/**
 * The strict decoding of the apply body that follows the field manager (upstream
 * applyPatcher, with sigs.k8s.io/yaml UnmarshalStrict): under Strict a repeated key throws
 * ApiError 400 `error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal
 * errors:\n  line 9: key "foo" already set in map`; under Warn each repeat is a warning
 * (`line 9: key "foo" already set in map`, once however often the check runs); Ignore skips it.
 */
function strictYamlCheck(raw: string, opts: WriteOptions): () => void {
  const mode = opts.fieldValidation ?? 'Warn';
  const repeats = mode === 'Ignore' ? [] : yamlDuplicateKeys(raw);
  let warned = false;
  return () => {
    if (!repeats.length) return;
    if (mode === 'Strict')
      throw badRequest(`error strict decoding YAML: error converting YAML to JSON: ${yamlUnmarshalErrors(repeats)}`);
    if (!warned) opts.warnings?.push(...repeats);
    warned = true;
  };
}

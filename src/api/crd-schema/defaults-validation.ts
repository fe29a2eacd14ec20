/**
 * The checks of a CustomResourceDefinition schema's `default`s, as upstream 1.33's
 * apiextensions-apiserver runs them on CRD create and update once the schema is structural:
 * pkg/apiserver/schema/defaulting/validation.go (ValidateDefaults: every default must be valid
 * against its node's schema, must give valid TypeMeta/ObjectMeta where it defaults metadata, and,
 * when required, must not carry fields pruning would drop), defaulting/prune.go with
 * surroundingobject.go (PruneDefaults), and pkg/apis/apiextensions/validation/validation.go
 * schemaHasUnprunedDefaults (an update may keep unpruned defaults the stored CRD already has).
 * Keywords set to JSON null count as absent, as Go's decoding makes them.
 */
import type { FieldError } from '../validation/field-errors.js';
import { goInvalid } from './go-format.js';
import { coerceEmbeddedResources, validateEmbeddedResources } from './object-meta.js';
import { toFieldErrors } from './openapi-result.js';
import { validateSchema } from './openapi-validator.js';
import { prune } from './prune.js';
import { toStructural } from './structural.js';
import type { JSONSchemaProps, Structural } from './types.js';
import { visitNodes, type NodeValidator } from './validate.js';
import { deepEqual } from './values.js';

/** Options of {@link validateSchemaDefaults}. */
export interface DefaultsValidationOptions {
  /**
   * Per-node validators run on a default that passed every other check, once with the default as
   * its own old value and, if that passes, once without one (upstream's CEL step for
   * `x-kubernetes-validations`, ratcheting on: rules with `optionalOldSelf` must hold on create).
   */
  nodeValidators?: readonly NodeValidator[];
}

/** A step from a surrounding object down to a default: a property name, or null for a list item. */
type Step = string | null;

/** Where a default sits: the resource it belongs to, the steps from it, and whether it is TypeMeta/ObjectMeta. */
interface Place {
  root: Structural;
  steps: readonly Step[];
  insideMeta: boolean;
}

interface Run {
  requirePruned: boolean;
  validators: readonly NodeValidator[];
}

/** Upstream's "this should never happen" errors: they replace every other finding. */
class DefaultsError extends Error {}

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
/** A deep copy of a decoded JSON value (upstream runtime.DeepCopyJSONValue). */
const copyJSON = <T>(v: T): T => (v !== null && typeof v === 'object' ? structuredClone(v) : v);
/** Set an own property, also one named `__proto__`. */
function put(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/**
 * A private copy of `s` without null keywords; `openAPIView` also drops
 * `x-kubernetes-int-or-string`, as Structural.ToKubeOpenAPI's validator does not type-check it.
 */
function copySchema(s: JSONSchemaProps, openAPIView: boolean): JSONSchemaProps {
  const out: Record<string, unknown> = {};
  const sub = (v: unknown): unknown => (isObject(v) ? copySchema(v as JSONSchemaProps, openAPIView) : copyJSON(v));
  for (const [k, v] of Object.entries(s)) {
    if (v === null || v === undefined || (openAPIView && k === 'x-kubernetes-int-or-string')) continue;
    switch (k) {
      case 'items':
      case 'not':
      case 'additionalProperties':
      case 'additionalItems':
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[k] = Array.isArray(v) ? v.map(sub) : sub(v);
        break;
      case 'properties':
      case 'patternProperties':
      case 'definitions':
      case 'dependencies': {
        const m: Record<string, unknown> = {};
        if (isObject(v)) for (const n of Object.keys(v)) put(m, n, sub(v[n]));
        out[k] = m;
        break;
      }
      default:
        put(out, k, copyJSON(v));
    }
  }
  return out as JSONSchemaProps;
}

/** `s` as the schema of a resource (upstream's isResourceRoot: TypeMeta and ObjectMeta at its root). */
const asResourceRoot = (s: Structural): Structural =>
  s.extensions?.xEmbeddedResource ? s : { ...s, extensions: { ...s.extensions, xEmbeddedResource: true } };

/**
 * Upstream SurroundingObjectFunc: `x` placed at `steps` inside new objects and lists; with
 * `typeMeta`, the root gets `apiVersion: validation/v1` and `kind: Validation` when it has none.
 * Throws (upstream's error) when the root is not an object.
 */
function surround(x: unknown, steps: readonly Step[], typeMeta: boolean): Record<string, unknown> {
  let v = x;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    v = step === null ? [v] : Object.fromEntries([[step, v]]);
  }
  if (!isObject(v)) throw new DefaultsError('object root default value must be of object type');
  if (typeMeta) {
    if (!Object.hasOwn(v, 'kind')) v.kind = 'Validation';
    if (!Object.hasOwn(v, 'apiVersion')) v.apiVersion = 'validation/v1';
  }
  return v;
}

/** The accessor of {@link surround}: the value at `steps` in `obj`, if it is still there. */
function access(obj: unknown, steps: readonly Step[]): { found: boolean; value?: unknown } {
  let v = obj;
  for (const step of steps) {
    if (step === null) {
      if (!Array.isArray(v)) throw new DefaultsError('[] must be of array type');
      if (v.length === 0) return { found: false };
      v = v[0];
    } else {
      if (!isObject(v)) throw new DefaultsError(`.${step} must be of object type`);
      if (!Object.hasOwn(v, step)) return { found: false };
      v = v[step];
    }
  }
  return { found: true, value: v };
}

/** Go's field.Error.Error(): `<field>: <body>`. */
const goError = (e: FieldError): string => `${e.field}: ${e.message}`;

/** ErrorList.ToAggregate().Error(): one message as is, several deduplicated in `[a, b]`. */
function aggregate(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(goError))];
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

/** An error found at a path relative to `prefix` (coercion starts at the nil path). */
function under(prefix: string, e: FieldError): FieldError {
  const field = !e.field ? prefix : e.field.startsWith('[') ? `${prefix}${e.field}` : `${prefix}.${e.field}`;
  return { ...e, field };
}

/**
 * Validate every `default` of `schema` (a CRD version's `openAPIV3Schema`, at path `at`, e.g.
 * `spec.versions[0].schema.openAPIV3Schema`), as upstream's ValidateDefaults(at, schema,
 * isResourceRoot=true, requirePruned). Returns the field errors at `<at>...default`:
 * `...properties[a].default: Invalid value: map[string]interface {}{"bar":42}: must not have
 * unknown fields` (only when `requirePruned`), embedded TypeMeta/ObjectMeta errors at their paths
 * under the default (`...default.metadata.name`), defaults of metadata fields as
 * `...default: Invalid value: "%": must result in valid metadata: metadata.name: Invalid value:
 * "%": may not contain '%'`, then the schema's own 422 errors (`...default.foo: Invalid value:
 * ...`), then `opts.nodeValidators`. Defaults under `additionalProperties` are not followed
 * (CRD validation forbids them there). The caller has checked that `schema` is structural; one
 * `toStructural` refuses gives a single error at `at`. Never throws; does not modify `schema`.
 */
export function validateSchemaDefaults(
  schema: JSONSchemaProps,
  at: string,
  requirePruned: boolean,
  opts: DefaultsValidationOptions = {},
): FieldError[] {
  try {
    const root = asResourceRoot(toStructural(copySchema(schema, false)) ?? {});
    const run = { requirePruned, validators: opts.nodeValidators ?? [] };
    return walk(copySchema(schema, true), root, at, { root, steps: [], insideMeta: false }, run);
  } catch (err) {
    return [goInvalid(at, '', (err as Error).message)];
  }
}

/**
 * Upstream's recursive `validate`: the node's default, then `items` and `properties`. `view` is
 * the node as its OpenAPI validator sees it ({@link copySchema}), `s` its structural form.
 */
function walk(view: JSONSchemaProps, s: Structural, at: string, place: Place, run: Run): FieldError[] {
  const embedded = Boolean(s.extensions?.xEmbeddedResource);
  const here: Place = embedded ? { root: s, steps: [], insideMeta: false } : place;
  const errs = s.generic?.default !== undefined ? checkDefault(view, s, `${at}.default`, here, run) : [];
  if (s.items && isObject(view.items)) {
    errs.push(...walk(view.items, s.items, `${at}.items`, { ...here, steps: [...here.steps, null] }, run));
  }
  for (const k of Object.keys(s.properties ?? {}).sort()) {
    const sub = view.properties?.[k];
    if (!sub) continue;
    const insideMeta = here.insideMeta || (embedded && META_FIELDS.has(k));
    const place2 = { root: here.root, steps: [...here.steps, k], insideMeta };
    errs.push(...walk(sub, s.properties![k], `${at}.properties[${k}]`, place2, run));
  }
  return errs;
}

/** The checks of one node's default (`s.generic.default`, a private copy) at `field`. */
function checkDefault(view: JSONSchemaProps, s: Structural, field: string, place: Place, run: Run): FieldError[] {
  const value = s.generic!.default;
  if (place.insideMeta) {
    const problem = metadataProblem(value, place);
    if (problem) return [goInvalid(field, value, `must result in valid metadata: ${problem}`)];
    return schemaErrors(view, s, field, value, run);
  }
  const errs: FieldError[] = [];
  const embedded = Boolean(s.extensions?.xEmbeddedResource);
  if (run.requirePruned) {
    const pruned = copyJSON(value);
    prune(pruned, s, { isResourceRoot: embedded });
    if (!deepEqual(pruned, value)) errs.push(goInvalid(field, value, 'must not have unknown fields'));
  }
  // Upstream coerces the default itself (embedded metadata round-tripped) before validating it.
  const coerced = coerceEmbeddedResources(value, s);
  if (coerced.error) return [...errs, under(field, coerced.error)];
  const metaErrs = validateEmbeddedResources(value, s, field);
  if (metaErrs.length > 0) return [...errs, ...metaErrs];
  return [...errs, ...schemaErrors(view, s, field, value, run)];
}

/** The TypeMeta/ObjectMeta problem of a default inside metadata, in its resource; '' when none. */
function metadataProblem(value: unknown, place: Place): string {
  let obj: Record<string, unknown>;
  try {
    obj = surround(copyJSON(value), place.steps, true);
  } catch (err) {
    throw new DefaultsError(`failed to validate default value inside metadata: ${(err as Error).message}`);
  }
  const root = asResourceRoot(place.root);
  const coerced = coerceEmbeddedResources(obj, root);
  if (coerced.error) return goError(coerced.error);
  const errs = validateEmbeddedResources(obj, root);
  return errs.length > 0 ? aggregate(errs) : '';
}

/** The node's OpenAPI validation of the default, then the node validators (upstream's CEL step). */
function schemaErrors(view: JSONSchemaProps, s: Structural, field: string, value: unknown, run: Run): FieldError[] {
  const result = validateSchema(view, '', value);
  if (!result.valid) return toFieldErrors(result, field);
  if (run.validators.length === 0) return [];
  const visit = (hasOld: boolean): FieldError[] => {
    const errs: FieldError[] = [];
    for (const v of run.validators) {
      visitNodes(value, s, field, hasOld, hasOld ? value : undefined, (node) => errs.push(...v(node)));
    }
    return errs;
  };
  const withOld = visit(true);
  return withOld.length > 0 ? withOld : visit(false);
}

/**
 * Whether some default of `schema` has fields that pruning (with ObjectMeta coercion, in the
 * resource the default belongs to) would drop: upstream's schemaHasUnprunedDefaults via
 * PruneDefaults, which also follows `additionalProperties`. An update must then not require
 * pruned defaults. False when `schema` cannot be made structural or a default cannot be placed
 * (a non-object default at the root), as upstream's error result counts as false. The caller
 * checks the structural rules first (upstream answers false for a non-structural schema).
 * Never throws.
 */
export function schemaHasUnprunedDefaults(schema: JSONSchemaProps): boolean {
  try {
    const root = toStructural(copySchema(schema, false));
    return root !== undefined && pruneChanges(root, root, []);
  } catch {
    return false;
  }
}

/** PruneDefaults' walk: whether any default under `s` changes; throws on upstream's errors. */
function pruneChanges(s: Structural, root: Structural, steps: readonly Step[]): boolean {
  let changed = false;
  const value = s.generic?.default;
  if (value !== undefined) {
    const obj = surround(copyJSON(value), steps, false);
    coerceEmbeddedResources(obj, asResourceRoot(root), { dropInvalidFields: true });
    prune(obj, root, { isResourceRoot: true });
    const got = access(obj, steps);
    changed = !got.found || !deepEqual(value, got.value);
  }
  const additional = s.generic?.additionalProperties?.structural;
  if (additional) changed = pruneChanges(additional, root, [...steps, '*']) || changed;
  if (s.items) changed = pruneChanges(s.items, root, [...steps, null]) || changed;
  for (const [k, sub] of Object.entries(s.properties ?? {}))
    changed = pruneChanges(sub, root, [...steps, k]) || changed;
  return changed;
}

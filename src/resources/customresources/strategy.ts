/**
 * The strategy of a custom resource version (upstream apiextensions-apiserver
 * pkg/registry/customresource/strategy.go and validator.go): the version's schema validates
 * (it pruned and defaulted on decode, see rows.ts); with a `status` subresource, create drops the status and the main
 * resource keeps the stored one; the generation starts at 1 and grows with every change of
 * anything but metadata (and status, when it has its own subresource); the `scale` paths must
 * hold non-negative integers and the selector path a string.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiObject } from '../../api/object.js';
import { invalidValue, type FieldError } from '../../api/validation/field-errors.js';
import type { Strategy } from '../../registry/types.js';
import type { ScalePaths } from './scale.js';
import type { SchemaProcessor } from './schema-processing.js';

/**
 * The strategy of one version: its schema, whether it has `/status`, its scale paths, and how
 * a stored object reads (`asRead`: pruned and defaulted by the schema as it is now, as
 * upstream's store decodes the old object), which is the old object the rules compare with:
 * a default added to the definition since the object was stored changes nothing by itself.
 */
export function customResourceStrategy(
  schema: SchemaProcessor,
  status: boolean,
  scale?: ScalePaths,
  asRead: (stored: ApiObject) => ApiObject = (stored) => stored,
): Strategy {
  return {
    prepareForCreate(obj) {
      if (status) delete obj.status;
      obj.metadata.generation = 1;
    },
    prepareForUpdate(obj, stored) {
      const old = asRead(stored);
      if (status) {
        if (old.status === undefined) delete obj.status;
        else obj.status = old.status;
      }
      const generation = old.metadata.generation ?? 0;
      obj.metadata.generation = contentChanged(obj, old) ? generation + 1 : generation;
    },
    validate: (obj) => [...schema.validate(obj), ...scaleProblems(obj, scale)],
    validateUpdate: (obj, old) => [...schema.validate(obj, asRead(old)), ...scaleProblems(obj, scale)],
  };
}

/** Whether anything but metadata differs (upstream compares the objects with metadata removed). */
function contentChanged(obj: ApiObject, old: ApiObject): boolean {
  const keys = new Set([...Object.keys(obj), ...Object.keys(old)]);
  for (const k of keys) {
    if (k === 'metadata') continue;
    if (!isDeepStrictEqual(obj[k] ?? null, old[k] ?? null)) return true;
  }
  return false;
}

function valueAt(obj: unknown, path: string): { found: boolean; value: unknown } {
  let cur: unknown = obj;
  for (const k of path.replace(/^\./, '').split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, k))
      return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[k];
  }
  return { found: true, value: cur };
}

const MAX_INT32 = 2147483647;

/** The type Go's unstructured accessors name in their errors. */
function goTypeOf(value: unknown): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}

function goValue(value: unknown): string {
  if (value === null) return '<nil>';
  if (typeof value === 'object') return Array.isArray(value) ? '[...]' : 'map[...]';
  return String(value);
}

/**
 * upstream validator.go ValidateScaleSpec / ValidateScaleStatus: the field is the path as
 * written in the CRD (`.spec.replicas`); a value of another type is unstructured.NestedInt64's
 * (NestedString's) accessor error with the value as 0 ('').
 */
function scaleProblems(obj: ApiObject, scale: ScalePaths | undefined): FieldError[] {
  if (!scale) return [];
  const errs: FieldError[] = [];
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const { found, value } = valueAt(obj, path);
    if (!found) continue;
    const accessor = `.${path.replace(/^\./, '')}`;
    if (typeof value !== 'number' || !Number.isInteger(value))
      errs.push(
        invalidValue(
          path,
          0,
          `${accessor} accessor error: ${goValue(value)} is of the type ${goTypeOf(value)}, expected int64`,
        ),
      );
    else if (value < 0) errs.push(invalidValue(path, value, 'should be a non-negative integer'));
    else if (value > MAX_INT32) errs.push(invalidValue(path, value, `should be less than or equal to ${MAX_INT32}`));
  }
  if (scale.labelSelectorPath) {
    const { found, value } = valueAt(obj, scale.labelSelectorPath);
    if (found && typeof value !== 'string') {
      const accessor = `.${scale.labelSelectorPath.replace(/^\./, '')}`;
      errs.push(
        invalidValue(
          scale.labelSelectorPath,
          '',
          `${accessor} accessor error: ${goValue(value)} is of the type ${goTypeOf(value)}, expected string`,
        ),
      );
    }
  }
  return errs;
}

/**
 * Custom-resource conversion around the webhook call (upstream apiextensions-apiserver 1.33
 * pkg/apiserver/conversion): the checks of converter.go crConverter.ConvertToVersion (target,
 * source and list items at versions the definition has), nop_converter.go (strategy None: only
 * apiVersion changes), and webhook_converter.go Convert after the answer: the count of converted
 * objects, each one's apiVersion and kind, identity and metadata (conversion-meta.ts), for one
 * object or for a list (one review for the list's items not yet at the desired version, put back
 * at their places). Pure; converters never change their input (upstream's safe wrapper copies).
 */
import { errorMessage } from '../../api/error-message.js';
import { isRecord } from '../../api/json.js';
import { deepCopy, isApiObject, type ApiObject } from '../../api/object.js';
import { restoreObjectMeta, validateConvertedObject } from './conversion-meta.js';
import { ConversionFailure, groupVersionString, gvkString, stringField } from './conversion-review.js';

/** A list of custom objects as upstream's UnstructuredList: its own type, items of any served version. */
export interface ObjectList {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
  items: ApiObject[];
}

/** What a converter converts: one object, or a list. */
export type ConversionInput = { readonly object: ApiObject } | { readonly list: ObjectList };

/** The type of the input as upstream's messages name it: `stable.example.com/v1, Kind=CronTab`. */
export function inputGvk(input: ConversionInput): string {
  const o = 'object' in input ? input.object : input.list;
  return gvkString(o.apiVersion ?? '', o.kind ?? '');
}

/**
 * crConverter.ConvertToVersion's checks: `desiredApiVersion`, the input's own apiVersion and
 * every list item's must be among `validApiVersions` (`<group>/<version>` of each version of the
 * definition). Throws ConversionFailure with upstream's messages.
 */
export function checkConversionVersions(
  validApiVersions: ReadonlySet<string>,
  input: ConversionInput,
  desiredApiVersion: string,
): void {
  const valid = (apiVersion: string) => validApiVersions.has(groupVersionString(apiVersion));
  if (!valid(desiredApiVersion))
    throw new ConversionFailure(
      `request to convert CR to an invalid group/version: ${groupVersionString(desiredApiVersion)}`,
    );
  const from = 'object' in input ? input.object.apiVersion : input.list.apiVersion;
  if (!valid(from ?? ''))
    throw new ConversionFailure(
      `request to convert CR from an invalid group/version: ${groupVersionString(from ?? '')}`,
    );
  if ('list' in input)
    input.list.items.forEach((item, i) => {
      if (!valid(stringField(item, 'apiVersion')))
        throw new ConversionFailure(
          `request to convert CR list failed, list index ${i} has invalid group/version: ${groupVersionString(stringField(item, 'apiVersion'))}`,
        );
    });
}

/** nopConverter: a copy with `apiVersion` set, on the list and each item. */
export function nopConvert<T extends ConversionInput>(input: T, desiredApiVersion: string): T;
export function nopConvert(input: ConversionInput, desiredApiVersion: string): ConversionInput {
  if ('object' in input) return { object: { ...deepCopy(input.object), apiVersion: desiredApiVersion } };
  const list = deepCopy(input.list);
  for (const item of list.items) item.apiVersion = desiredApiVersion;
  return { list: { ...list, apiVersion: desiredApiVersion } };
}

/**
 * isEmptyUnstructuredObject: an object with nothing but apiVersion and kind (upstream's cacher
 * converts one at start; the webhook is not called for it).
 */
export function isEmptyObject(input: ConversionInput): boolean {
  if (!('object' in input)) return false;
  const keys = Object.keys(input.object);
  return keys.length === 2 && keys.includes('apiVersion') && keys.includes('kind');
}

/** getRawExtensionObject: a converted object as unstructured decodes it (kind required). */
function decodedObject(raw: unknown): Record<string, unknown> {
  if (raw === null || raw === undefined) throw new ConversionFailure('unexpected end of JSON input');
  if (!isRecord(raw)) {
    const t = Array.isArray(raw) ? 'array' : typeof raw === 'boolean' ? 'bool' : typeof raw;
    throw new ConversionFailure(`json: cannot unmarshal ${t} into Go value of type map[string]interface {}`);
  }
  if (!stringField(raw, 'kind')) throw new ConversionFailure(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  return deepCopy(raw);
}

const invalid = (message: string) =>
  new ConversionFailure(message, 'conversion_webhook_invalid_converted_object_failure');

/** A checked object, or upstream's "this should not happen" type failure. */
function asObject(converted: Record<string, unknown>, gvk: string): ApiObject {
  if (!isApiObject(converted)) throw invalid(`conversion webhook for ${gvk} failed, unexpected type at index 0`);
  return converted;
}

/**
 * Apply a webhook's `convertedObjects` to `input`, whose `sent` objects (those not at
 * `desiredApiVersion`) went in the review: one converted object per sent one, at
 * `desiredApiVersion` with the original's kind, identity kept, metadata restored. Returns a new
 * input with the converted objects in place (a list's other items as they were, its apiVersion
 * set). Throws ConversionFailure with upstream's message and failure type.
 */
export function applyConvertedObjects(
  input: ConversionInput,
  desiredApiVersion: string,
  sent: number,
  convertedObjects: readonly unknown[],
): ConversionInput {
  const gvk = inputGvk(input);
  const desired = groupVersionString(desiredApiVersion);
  if (convertedObjects.length !== sent)
    throw new ConversionFailure(
      `conversion webhook for ${gvk} returned ${convertedObjects.length} objects, expected ${sent}`,
      'conversion_webhook_partial_response_failure',
    );
  if ('list' in input) {
    const list = deepCopy(input.list);
    let index = 0;
    list.items = list.items.map((original) => {
      if (stringField(original, 'apiVersion') === desiredApiVersion) return original;
      const at = `conversion webhook for ${gvk} returned invalid converted object at index ${index}`;
      let converted: Record<string, unknown>;
      try {
        converted = decodedObject(convertedObjects[index]);
      } catch (err) {
        throw invalid(`${at}: ${errorMessage(err)}`);
      }
      const got = groupVersionString(stringField(converted, 'apiVersion'));
      if (got !== desired) throw invalid(`${at}: invalid groupVersion (expected ${desired}, received ${got})`);
      const [ek, ak] = [stringField(original, 'kind'), stringField(converted, 'kind')];
      if (ek !== ak) throw invalid(`${at}: invalid kind (expected ${ek}, received ${ak})`);
      try {
        validateConvertedObject(original, converted);
      } catch (err) {
        throw invalid(`${at}: ${errorMessage(err)}`);
      }
      try {
        restoreObjectMeta(original, converted);
      } catch (err) {
        throw invalid(
          `conversion webhook for ${gvk} returned invalid metadata in object at index ${index}: ${errorMessage(err)}`,
        );
      }
      index++;
      return asObject(converted, gvk);
    });
    return { list: { ...list, apiVersion: desiredApiVersion } };
  }
  if (convertedObjects.length !== 1)
    throw new ConversionFailure(
      `conversion webhook for ${gvk} failed, no objects returned`,
      'conversion_webhook_no_objects_returned_failure',
    );
  let converted: Record<string, unknown>;
  try {
    converted = decodedObject(convertedObjects[0]);
  } catch (err) {
    throw invalid(errorMessage(err));
  }
  const at = `conversion webhook for ${gvk} returned invalid object at index 0`;
  const got = groupVersionString(stringField(converted, 'apiVersion'));
  if (got !== desired) throw invalid(`${at}: invalid groupVersion (expected ${desired}, received ${got})`);
  const [ek, ak] = [input.object.kind ?? '', stringField(converted, 'kind')];
  if (ek !== ak) throw invalid(`${at}: invalid kind (expected ${ek}, received ${ak})`);
  try {
    validateConvertedObject(input.object, converted);
  } catch (err) {
    throw invalid(`conversion webhook for ${gvk} returned invalid object: ${errorMessage(err)}`);
  }
  try {
    restoreObjectMeta(input.object, converted);
  } catch (err) {
    throw invalid(`conversion webhook for ${gvk} returned invalid metadata: ${errorMessage(err)}`);
  }
  return { object: asObject(converted, gvk) };
}

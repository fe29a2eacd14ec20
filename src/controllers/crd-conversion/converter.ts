/**
 * The converter of a CustomResourceDefinition's objects (upstream apiextensions-apiserver 1.33
 * pkg/apiserver/conversion/converter.go NewConverter and crConverter): by
 * `spec.conversion.strategy`, None (only apiVersion changes) or Webhook (webhook-converter.ts,
 * timed in `apiserver_crd_conversion_webhook_duration_seconds`); before either, the target, the
 * source and each list item must be at versions the definition has. Inputs are never changed
 * (upstream's safe wrapper copies them). Failures are a 500 whose message is upstream's error
 * text, as upstream's handlers answer an error that is not a Status (ErrorToAPIStatus).
 */
import type { ApiObject } from '../../api/object.js';
import { errorMessage } from '../../api/error-message.js';
import { ApiError } from '../../errors/api-error.js';
import type { CustomResourceDefinition } from '../../resources/customresourcedefinitions/customresourcedefinitions.schema.js';
import { ConversionFailure, parseGroupVersion } from '../../resources/customresources/conversion-review.js';
import {
  checkConversionVersions,
  nopConvert,
  type ConversionInput,
  type ObjectList,
} from '../../resources/customresources/conversion-result.js';
import { webhookConverter, type InputConverter, type WebhookConverterOptions } from './webhook-converter.js';

/** Converts a definition's custom objects between its versions. */
export interface CustomResourceConverter {
  /** `obj` at `desiredApiVersion` (a new object). Throws ApiError 500 with upstream's message. */
  convertObject(obj: ApiObject, desiredApiVersion: string): Promise<ApiObject>;
  /**
   * `list` at `desiredApiVersion`: its apiVersion set, its items not yet there converted in one
   * review (new objects, order kept). Throws ApiError 500 with upstream's message.
   */
  convertList(list: ObjectList, desiredApiVersion: string): Promise<ObjectList>;
  /**
   * `objects` at `desiredApiVersion`, in order (storage's ObjectConverter): one object as
   * upstream's storage decoding converts each (its own type in messages); several in one review,
   * as a list of the definition's list kind at the first object's version. Throws ApiError 500.
   */
  convertObjects(objects: readonly ApiObject[], desiredApiVersion: string): Promise<ApiObject[]>;
}

/** The version of an apiVersion (`stable.example.com/v1` -> `v1`). */
const versionOf = (apiVersion: string | undefined): string => parseGroupVersion(apiVersion ?? '')?.version ?? '';

/** A conversion failure as the request's error. */
function asApiError(err: unknown): unknown {
  if (err instanceof ConversionFailure) return new ApiError(500, '', errorMessage(err));
  return err;
}

/**
 * The converter of `crd`. Throws ConversionFailure `unknown conversion strategy "X" for CRD
 * <name>` for a strategy other than None and Webhook (validation forbids them).
 */
export function customResourceConverter(
  crd: CustomResourceDefinition,
  opts: WebhookConverterOptions,
): CustomResourceConverter {
  const strategy = crd.spec.conversion?.strategy ?? 'None';
  const name = crd.metadata.name ?? '';
  const valid = new Set(crd.spec.versions.map((v) => `${crd.spec.group}/${v.name}`));
  let inner: InputConverter;
  if (strategy === 'None') inner = { convert: async (input, desired) => nopConvert(input, desired) };
  else if (strategy === 'Webhook') inner = timed(name, webhookConverter(crd, opts), opts);
  else throw new ConversionFailure(`unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${name}`);
  const convert = async (input: ConversionInput, desired: string): Promise<ConversionInput> => {
    try {
      checkConversionVersions(valid, input, desired);
      return await inner.convert(input, desired);
    } catch (err) {
      throw asApiError(err);
    }
  };
  return {
    async convertObject(obj, desired) {
      const out = await convert({ object: obj }, desired);
      if (!('object' in out)) throw new ApiError(500, '', 'CR conversion failed');
      return out.object;
    },
    async convertList(list, desired) {
      const out = await convert({ list }, desired);
      if (!('list' in out)) throw new ApiError(500, '', 'CR conversion failed');
      return out.list;
    },
    async convertObjects(objects, desired) {
      if (objects.length === 0) return [];
      if (objects.length === 1) return [await this.convertObject(objects[0]!, desired)];
      const first = objects[0]!;
      const kind = crd.status?.acceptedNames?.listKind || `${first.kind ?? ''}List`;
      const list = await this.convertList({ apiVersion: first.apiVersion, kind, items: [...objects] }, desired);
      return list.items;
    },
  };
}

/** converterMetric: the definition's conversion durations by versions and outcome. */
function timed(crdName: string, inner: InputConverter, opts: WebhookConverterOptions): InputConverter {
  const metrics = opts.metrics;
  if (!metrics) return inner;
  return {
    async convert(input, desired) {
      const started = performance.now();
      const from = versionOf('object' in input ? input.object.apiVersion : input.list.apiVersion);
      const observe = (ok: boolean) =>
        metrics.observeCrdConversion(crdName, from, versionOf(desired), ok, (performance.now() - started) / 1000);
      try {
        const out = await inner.convert(input, desired);
        observe(true);
        return out;
      } catch (err) {
        observe(false);
        throw err;
      }
    },
  };
}

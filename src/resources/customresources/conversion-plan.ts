/**
 * One webhook conversion as two pure steps around the HTTPS call (upstream apiextensions-apiserver
 * 1.33 pkg/apiserver/conversion/webhook_converter.go webhookConverter.Convert): plan (an empty
 * object or nothing to convert needs no call; else the ConversionReview to send, in the first
 * review version the definition accepts) and finish (decode the answer, check the response,
 * apply the converted objects). Messages and metric failure types are upstream's.
 */
import { errorMessage } from '../../api/error-message.js';
import { deepCopy } from '../../api/object.js';
import {
  ConversionFailure,
  conversionReview,
  convertedObjectsFromResponse,
  decodeConversionReview,
  objectsToConvert,
  reviewVersionFor,
  type ReviewVersion,
} from './conversion-review.js';
import {
  applyConvertedObjects,
  inputGvk,
  isEmptyObject,
  nopConvert,
  type ConversionInput,
} from './conversion-result.js';

/** What to do for a conversion: nothing more (`done`), or send `review` and finish with its answer. */
export type ConversionPlan =
  | { readonly done: ConversionInput }
  | {
      readonly version: ReviewVersion;
      readonly uid: string;
      /** The ConversionReview request body. */
      readonly review: Record<string, unknown>;
      /** How many objects the review carries. */
      readonly sent: number;
    };

/**
 * Plan the conversion of `input` to `desiredApiVersion` with review `uid`. An empty object
 * (apiVersion and kind only) is converted as strategy None; when every object is already at the
 * desired version the result is `done` (a list with its apiVersion set). Throws
 * ConversionFailure `no supported conversion review versions` (even when nothing needs converting,
 * as upstream).
 */
export function planWebhookConversion(
  input: ConversionInput,
  desiredApiVersion: string,
  conversionReviewVersions: readonly string[],
  uid: string,
): ConversionPlan {
  if (isEmptyObject(input)) return { done: nopConvert(input, desiredApiVersion) };
  const items = 'object' in input ? [input.object] : input.list.items;
  const toConvert = objectsToConvert(items, desiredApiVersion);
  const version = reviewVersionFor(conversionReviewVersions);
  if (toConvert.length === 0) {
    if ('object' in input) return { done: input };
    return { done: { list: { ...deepCopy(input.list), apiVersion: desiredApiVersion } } };
  }
  return { version, uid, review: conversionReview(version, uid, desiredApiVersion, toConvert), sent: toConvert.length };
}

/** The failure of a call that did not answer: `conversion webhook for <gvk> failed: <message>`. */
export function callFailure(input: ConversionInput, message: string): ConversionFailure {
  return new ConversionFailure(
    `conversion webhook for ${inputGvk(input)} failed: ${message}`,
    'conversion_webhook_call_failure',
  );
}

/**
 * Finish a planned conversion with the webhook's decoded JSON `answer` (a 2xx body). Returns
 * the converted input (new objects). Throws ConversionFailure: an answer that does not decode as
 * the review (call failure), a malformed or unsuccessful response, a wrong count, an invalid
 * converted object or metadata.
 */
export function finishWebhookConversion(
  input: ConversionInput,
  desiredApiVersion: string,
  plan: Exclude<ConversionPlan, { done: ConversionInput }>,
  answer: Readonly<Record<string, unknown>>,
): ConversionInput {
  let decoded;
  try {
    decoded = decodeConversionReview(plan.version, answer);
  } catch (err) {
    throw callFailure(input, errorMessage(err));
  }
  let converted: readonly unknown[];
  try {
    converted = convertedObjectsFromResponse(plan.version, plan.uid, decoded);
  } catch (err) {
    throw new ConversionFailure(
      `conversion webhook for ${inputGvk(input)} failed: ${errorMessage(err)}`,
      'conversion_webhook_malformed_response_failure',
    );
  }
  return applyConvertedObjects(input, desiredApiVersion, plan.sent, converted);
}

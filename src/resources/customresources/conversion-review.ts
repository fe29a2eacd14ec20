/**
 * The ConversionReview exchanged with a CustomResourceDefinition's conversion webhook (upstream
 * apiextensions-apiserver 1.33 pkg/apiserver/conversion/webhook_converter.go
 * createConversionReviewObjects, getObjectsToConvert, getConvertedObjectsFromResponse, and the
 * decoding of the answer by client-go's REST client into the typed review: apiVersion and kind
 * defaulted from the review sent, a review of the other version refused by the scheme). Pure: no
 * I/O. Failures are ConversionFailure with upstream's message and its metric's failure type.
 */
import { isRecord } from '../../api/json.js';
import type { ApiObject } from '../../api/object.js';

/** The ConversionReview versions upstream speaks (apiextensions.k8s.io/v1 and v1beta1). */
export type ReviewVersion = 'v1' | 'v1beta1';

/** The group of ConversionReview. */
export const REVIEW_GROUP = 'apiextensions.k8s.io';

/**
 * Why a conversion failed, as upstream's `failure_type` label of
 * `apiserver_conversion_webhook_request_total` (metrics.go ConversionWebhookErrorType); '' for
 * failures upstream does not count (no supported review version, invalid versions).
 */
export type ConversionFailureType =
  | 'conversion_webhook_call_failure'
  | 'conversion_webhook_malformed_response_failure'
  | 'conversion_webhook_partial_response_failure'
  | 'conversion_webhook_invalid_converted_object_failure'
  | 'conversion_webhook_no_objects_returned_failure'
  | '';

/** A failed conversion; `message` is upstream's error text. */
export class ConversionFailure extends Error {
  constructor(
    message: string,
    readonly failureType: ConversionFailureType = '',
  ) {
    super(message);
    this.name = 'ConversionFailure';
  }
}

/** The group and version of an apiVersion, as Go's schema.ParseGroupVersion (null: unparsable). */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } | null {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  return null;
}

/** Go's GroupVersion.String() of an apiVersion (`foo/v1`, `v1`, '' when unparsable). */
export function groupVersionString(apiVersion: string): string {
  const gv = parseGroupVersion(apiVersion);
  if (!gv) return '';
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** Go's GroupVersionKind.String() of an object's type: `stable.example.com/v1, Kind=CronTab`. */
export function gvkString(apiVersion: string, kind: string): string {
  const gv = parseGroupVersion(apiVersion) ?? { group: '', version: '' };
  return `${gv.group}/${gv.version}, Kind=${kind}`;
}

/** A string field of an object as unstructured's getters read it ('' when absent or not a string). */
export const stringField = (obj: Readonly<Record<string, unknown>>, key: string): string => {
  const v = obj[key];
  return typeof v === 'string' ? v : '';
};

/**
 * The first ConversionReview version of `conversionReviewVersions` upstream supports. Throws
 * ConversionFailure `no supported conversion review versions` when there is none.
 */
export function reviewVersionFor(conversionReviewVersions: readonly string[]): ReviewVersion {
  for (const v of conversionReviewVersions) if (v === 'v1' || v === 'v1beta1') return v;
  throw new ConversionFailure('no supported conversion review versions');
}

/** The objects of `items` not already at `desiredApiVersion`, in order (getObjectsToConvert). */
export function objectsToConvert(items: readonly ApiObject[], desiredApiVersion: string): ApiObject[] {
  return items.filter((o) => stringField(o, 'apiVersion') !== desiredApiVersion);
}

/** The ConversionReview request body sent to the webhook (`response` is not sent: Go omits it when empty). */
export function conversionReview(
  version: ReviewVersion,
  uid: string,
  desiredAPIVersion: string,
  objects: readonly ApiObject[],
): Record<string, unknown> {
  return {
    kind: 'ConversionReview',
    apiVersion: `${REVIEW_GROUP}/${version}`,
    request: { uid, desiredAPIVersion, objects },
  };
}

/** The decoded `response` of a ConversionReview. */
export interface ConversionResponse {
  readonly uid: string;
  readonly convertedObjects: readonly unknown[];
  readonly result: { readonly status: string; readonly message: string };
}

/** A decoded ConversionReview: its apiVersion and kind as sent, and its response. */
export interface DecodedReview {
  readonly apiVersion: string;
  readonly kind: string;
  readonly response: ConversionResponse | null;
}

/** The scheme upstream's webhook client decodes with (named by its call site, client.go:71). */
const SCHEME = 'k8s.io/apiserver/pkg/util/webhook/client.go:71';
/** Kinds the webhook client's scheme knows per group version, and their Go package. */
const REGISTERED: Readonly<Record<string, { pkg: string; kinds: readonly string[] }>> = {
  v1: { pkg: 'v1', kinds: ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'] },
  ...Object.fromEntries(
    (['v1', 'v1beta1'] as const).map((v) => [
      `${REVIEW_GROUP}/${v}`,
      {
        pkg: v,
        kinds: [
          'ConversionReview',
          'CustomResourceDefinition',
          'CustomResourceDefinitionList',
          'WatchEvent',
          'ListOptions',
          'GetOptions',
          'DeleteOptions',
          'CreateOptions',
          'UpdateOptions',
          'PatchOptions',
        ],
      },
    ]),
  ),
};

/** JSON type names as Go's encoding/json reports them. */
const jsonType = (v: unknown): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v;

const unmarshalError = (v: unknown, field: string, goType: string): ConversionFailure =>
  new ConversionFailure(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${field} of type ${goType}`);

/**
 * Decode a webhook's answer as client-go decodes it into the ConversionReview of `version`:
 * apiVersion and kind are defaulted from that type where missing; another registered type is
 * refused by the scheme (`converting (v1beta1.ConversionReview) to (v1.ConversionReview):
 * unknown conversion`), an unknown one too (`no kind "X" is registered for version "g/v" in
 * scheme ...`); fields of the wrong JSON type give Go's unmarshal error. Throws ConversionFailure.
 */
export function decodeConversionReview(
  version: ReviewVersion,
  answer: Readonly<Record<string, unknown>>,
): DecodedReview {
  for (const key of ['apiVersion', 'kind'])
    if (answer[key] !== undefined && answer[key] !== null && typeof answer[key] !== 'string')
      throw new ConversionFailure(
        `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(answer[key])} into Go struct field .${key} of type string`,
      );
  const apiVersion = stringField(answer, 'apiVersion');
  const kind = stringField(answer, 'kind');
  // gvkWithDefaults of the json serializer, with the typed review as the default.
  const gv = parseGroupVersion(apiVersion) ?? { group: '', version: '' };
  const actual = { group: gv.group, version: gv.version, kind: kind || 'ConversionReview' };
  if (!actual.version && (!actual.group || actual.group === REVIEW_GROUP)) {
    actual.group = REVIEW_GROUP;
    actual.version = version;
  }
  const actualGv = actual.group ? `${actual.group}/${actual.version}` : actual.version;
  if (actualGv !== `${REVIEW_GROUP}/${version}` || actual.kind !== 'ConversionReview') {
    const known = REGISTERED[actualGv];
    if (known?.kinds.includes(actual.kind))
      throw new ConversionFailure(
        `converting (${known.pkg}.${actual.kind}) to (${version}.ConversionReview): unknown conversion`,
      );
    throw new ConversionFailure(
      `no kind ${JSON.stringify(actual.kind)} is registered for version ${JSON.stringify(actualGv)} in scheme ${JSON.stringify(SCHEME)}`,
    );
  }
  return { apiVersion, kind, response: decodeResponse(version, answer.response) };
}

function decodeResponse(version: ReviewVersion, raw: unknown): ConversionResponse | null {
  if (raw === undefined || raw === null) return null;
  const at = (f: string) => `ConversionReview.response${f}`;
  if (!isRecord(raw)) throw unmarshalError(raw, at(''), `${version}.ConversionResponse`);
  const uid = raw.uid ?? '';
  if (typeof uid !== 'string') throw unmarshalError(uid, at('.uid'), 'types.UID');
  const objects = raw.convertedObjects ?? [];
  if (!Array.isArray(objects)) throw unmarshalError(objects, at('.convertedObjects'), '[]runtime.RawExtension');
  const result = raw.result ?? {};
  if (!isRecord(result)) throw unmarshalError(result, at('.result'), 'v1.Status');
  const status = result.status ?? '';
  if (typeof status !== 'string') throw unmarshalError(status, at('.result.status'), 'string');
  const message = result.message ?? '';
  if (typeof message !== 'string') throw unmarshalError(message, at('.result.message'), 'string');
  return { uid, convertedObjects: objects, result: { status, message } };
}

/**
 * The converted objects of a decoded review (getConvertedObjectsFromResponse): for v1 the
 * apiVersion and kind must be `apiextensions.k8s.io/v1` ConversionReview and the uid the
 * request's; for both versions a response must be there and its result Success (else the
 * result's message). v1beta1 checks neither type nor uid, as upstream kept for compatibility.
 * Throws ConversionFailure (without upstream's `conversion webhook for ... failed: ` prefix).
 */
export function convertedObjectsFromResponse(
  version: ReviewVersion,
  expectedUid: string,
  review: DecodedReview,
): readonly unknown[] {
  if (version === 'v1') {
    const want = gvkString(`${REVIEW_GROUP}/v1`, 'ConversionReview');
    const got = gvkString(review.apiVersion, review.kind);
    if (got !== want) throw new ConversionFailure(`expected webhook response of ${want}, got ${got}`);
  }
  const res = review.response;
  if (!res) throw new ConversionFailure('no response provided');
  if (version === 'v1' && res.uid !== expectedUid)
    throw new ConversionFailure(`expected response.uid=${JSON.stringify(expectedUid)}, got ${JSON.stringify(res.uid)}`);
  if (res.result.status !== 'Success') {
    if (res.result.message) throw new ConversionFailure(res.result.message);
    throw new ConversionFailure(`response.result.status was '${res.result.status}', not 'Success'`);
  }
  return res.convertedObjects;
}

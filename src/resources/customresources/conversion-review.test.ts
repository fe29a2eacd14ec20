import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import {
  conversionReview,
  convertedObjectsFromResponse,
  decodeConversionReview,
  gvkString,
  objectsToConvert,
  reviewVersionFor,
  type DecodedReview,
  type ReviewVersion,
} from './conversion-review.js';

const widget = (v: string): ApiObject => ({ apiVersion: `foo/${v}`, kind: 'Widget', metadata: { name: `my${v}` } });
const [v1Object, v2Object, v3Object] = [widget('v1'), widget('v2'), widget('v3')];

describe('objectsToConvert (upstream TestGetObjectsToConvert)', () => {
  it.each([
    { name: 'empty list', items: [], expect: [] },
    { name: 'one-item list, in desired version', items: [v1Object], expect: [] },
    { name: 'one-item list, not in desired version', items: [v2Object], expect: [v2Object] },
    { name: 'multi-item list, in desired version', items: [v1Object, v1Object, v1Object], expect: [] },
    { name: 'multi-item list, mixed versions', items: [v1Object, v2Object, v3Object], expect: [v2Object, v3Object] },
  ])('$name', ({ items, expect: want }) => {
    expect(objectsToConvert(items, 'foo/v1')).toEqual(want);
  });
});

describe('reviewVersionFor and conversionReview (upstream TestCreateConversionReviewObjects)', () => {
  const objects = [{ apiVersion: 'foo/v2', kind: 'Widget', metadata: {} }];
  it('refuses when no version is supported', () => {
    expect(() => reviewVersionFor(['vx'])).toThrow('no supported conversion review versions');
    expect(() => reviewVersionFor([])).toThrow('no supported conversion review versions');
  });
  it.each([
    { versions: ['v1', 'v1beta1', 'v2'], version: 'v1' },
    { versions: ['v1beta1', 'v1', 'v2'], version: 'v1beta1' },
    { versions: ['v2', 'v1beta1'], version: 'v1beta1' },
  ])('the first supported of $versions is $version', ({ versions, version }) => {
    const v = reviewVersionFor(versions);
    expect(v).toBe(version);
    expect(conversionReview(v, 'uid', 'foo/v1', objects)).toEqual({
      kind: 'ConversionReview',
      apiVersion: `apiextensions.k8s.io/${version}`,
      request: { uid: 'uid', desiredAPIVersion: 'foo/v1', objects },
    });
  });
});

const success = { status: 'Success', message: '' };
const review = (apiVersion: string, kind: string, response: DecodedReview['response']): DecodedReview => ({
  apiVersion,
  kind,
  response,
});
const V1 = 'apiextensions.k8s.io/v1';
const CR = 'ConversionReview';

describe('convertedObjectsFromResponse (upstream TestGetConvertedObjectsFromResponse)', () => {
  it.each<{ name: string; version: ReviewVersion; review: DecodedReview; objects?: unknown[]; error?: string }>([
    {
      name: 'minimal valid v1beta1 (type and uid were never checked)',
      version: 'v1beta1',
      review: review('', '', { uid: '', convertedObjects: [], result: success }),
      objects: [],
    },
    {
      name: 'valid v1beta1 with objects',
      version: 'v1beta1',
      review: review('', '', { uid: '', convertedObjects: [v1Object], result: success }),
      objects: [v1Object],
    },
    {
      name: 'error v1beta1, empty status',
      version: 'v1beta1',
      review: review('', '', { uid: '', convertedObjects: [], result: { status: '', message: '' } }),
      error: `response.result.status was '', not 'Success'`,
    },
    {
      name: 'error v1beta1, failure status',
      version: 'v1beta1',
      review: review('', '', { uid: '', convertedObjects: [], result: { status: 'Failure', message: '' } }),
      error: `response.result.status was 'Failure', not 'Success'`,
    },
    {
      name: 'error v1beta1, custom status',
      version: 'v1beta1',
      review: review('', '', {
        uid: '',
        convertedObjects: [],
        result: { status: 'Failure', message: 'some failure message' },
      }),
      error: 'some failure message',
    },
    {
      name: 'invalid v1beta1, no response',
      version: 'v1beta1',
      review: review('', '', null),
      error: 'no response provided',
    },
    {
      name: 'minimal valid v1',
      version: 'v1',
      review: review(V1, CR, { uid: 'uid', convertedObjects: [], result: success }),
      objects: [],
    },
    {
      name: 'valid v1 with objects',
      version: 'v1',
      review: review(V1, CR, { uid: 'uid', convertedObjects: [v1Object], result: success }),
      objects: [v1Object],
    },
    {
      name: 'invalid v1, no uid',
      version: 'v1',
      review: review(V1, CR, { uid: '', convertedObjects: [], result: success }),
      error: 'expected response.uid="uid", got ""',
    },
    {
      name: 'invalid v1, no apiVersion',
      version: 'v1',
      review: review('', CR, { uid: 'uid', convertedObjects: [], result: success }),
      error:
        'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=ConversionReview',
    },
    {
      name: 'invalid v1, no kind',
      version: 'v1',
      review: review(V1, '', { uid: 'uid', convertedObjects: [], result: success }),
      error:
        'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=',
    },
    {
      name: 'invalid v1, mismatched apiVersion',
      version: 'v1',
      review: review('apiextensions.k8s.io/v2', CR, { uid: 'uid', convertedObjects: [], result: success }),
      error:
        'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v2, Kind=ConversionReview',
    },
    {
      name: 'invalid v1, mismatched kind',
      version: 'v1',
      review: review(V1, 'ConversionReview2', { uid: 'uid', convertedObjects: [], result: success }),
      error:
        'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=ConversionReview2',
    },
    {
      name: 'error v1, empty status',
      version: 'v1',
      review: review(V1, CR, { uid: 'uid', convertedObjects: [], result: { status: '', message: '' } }),
      error: `response.result.status was '', not 'Success'`,
    },
    {
      name: 'error v1, failure status',
      version: 'v1',
      review: review(V1, CR, { uid: 'uid', convertedObjects: [], result: { status: 'Failure', message: '' } }),
      error: `response.result.status was 'Failure', not 'Success'`,
    },
    {
      name: 'error v1, custom status',
      version: 'v1',
      review: review(V1, CR, {
        uid: 'uid',
        convertedObjects: [],
        result: { status: 'Failure', message: 'some failure message' },
      }),
      error: 'some failure message',
    },
    { name: 'invalid v1, no response', version: 'v1', review: review(V1, CR, null), error: 'no response provided' },
  ])('$name', ({ version, review: r, objects, error }) => {
    if (error) expect(() => convertedObjectsFromResponse(version, 'uid', r)).toThrow(error);
    else expect(convertedObjectsFromResponse(version, 'uid', r)).toEqual(objects);
  });
});

describe('decodeConversionReview (client-go decoding into the typed review)', () => {
  const res = { uid: 'u', result: { status: 'Success' }, convertedObjects: [v1Object] };
  it.each<{ name: string; version: ReviewVersion; answer: Record<string, unknown>; error: string }>([
    {
      name: 'a v1beta1 review answering a v1 request',
      version: 'v1',
      answer: { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: CR, response: res },
      error: 'converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion',
    },
    {
      name: 'a Status',
      version: 'v1beta1',
      answer: { apiVersion: 'v1', kind: 'Status', status: 'Failure' },
      error: 'converting (v1.Status) to (v1beta1.ConversionReview): unknown conversion',
    },
    {
      name: 'an unregistered version',
      version: 'v1',
      answer: { apiVersion: 'apiextensions.k8s.io/v2', kind: CR, response: res },
      error:
        'no kind "ConversionReview" is registered for version "apiextensions.k8s.io/v2" in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:71"',
    },
    {
      name: 'a response of the wrong JSON type',
      version: 'v1',
      answer: { apiVersion: V1, kind: CR, response: 'ok' },
      error:
        'json: cannot unmarshal string into Go struct field ConversionReview.response of type v1.ConversionResponse',
    },
    {
      name: 'convertedObjects not a list',
      version: 'v1',
      answer: { apiVersion: V1, kind: CR, response: { ...res, convertedObjects: {} } },
      error:
        'json: cannot unmarshal object into Go struct field ConversionReview.response.convertedObjects of type []runtime.RawExtension',
    },
    {
      name: 'a kind that is not a string',
      version: 'v1',
      answer: { apiVersion: V1, kind: 3 },
      error:
        "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    },
  ])('refuses $name', ({ version, answer, error }) => {
    expect(() => decodeConversionReview(version, answer)).toThrow(error);
  });

  it('defaults a missing apiVersion and kind (v1 then fails the type check on the empty type)', () => {
    const decoded = decodeConversionReview('v1', { response: res });
    expect(decoded).toEqual({
      apiVersion: '',
      kind: '',
      response: { ...res, result: { status: 'Success', message: '' } },
    });
    expect(() => convertedObjectsFromResponse('v1', 'u', decoded)).toThrow('got /, Kind=');
    expect(
      convertedObjectsFromResponse('v1beta1', 'other', decodeConversionReview('v1beta1', { response: res })),
    ).toEqual([v1Object]);
  });

  it('formats types as Go does', () => {
    expect(gvkString('stable.example.com/v1', 'CronTab')).toBe('stable.example.com/v1, Kind=CronTab');
    expect(gvkString('v1', 'Pod')).toBe('/v1, Kind=Pod');
    expect(gvkString('a/b/c', 'X')).toBe('/, Kind=X');
  });
});

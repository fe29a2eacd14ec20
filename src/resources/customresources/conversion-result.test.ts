import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../api/object.js';
import { finishWebhookConversion, planWebhookConversion, type ConversionPlan } from './conversion-plan.js';
import { checkConversionVersions, nopConvert, type ConversionInput, type ObjectList } from './conversion-result.js';

const G = 'stable.example.com';
const crontab = (name: string, v: string, extra: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: `${G}/${v}`,
  kind: 'CronTab',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '7', labels: { app: name } },
  spec: { cronSpec: '* * * * */5' },
  ...extra,
});
const list = (...items: ApiObject[]): ObjectList => ({
  apiVersion: `${G}/v1`,
  kind: 'CronTabList',
  metadata: {},
  items,
});

/** A webhook that converts by renaming spec.cronSpec to spec.schedule and setting apiVersion. */
const convertLikeAWebhook = (o: ApiObject, desired: string): Record<string, unknown> => ({
  ...o,
  apiVersion: desired,
  metadata: { ...o.metadata, resourceVersion: '999', labels: { ...o.metadata.labels, converted: 'yes' } },
  spec: { schedule: (o.spec as { cronSpec: string }).cronSpec },
});

type Sent = Exclude<ConversionPlan, { done: ConversionInput }>;
function plan(input: ConversionInput, desired: string, versions = ['v1']): Sent {
  const p = planWebhookConversion(input, desired, versions, 'the-uid');
  if ('done' in p) throw new Error('expected a review');
  return p;
}
const answer = (p: Sent, convertedObjects: unknown[]) => ({
  apiVersion: `apiextensions.k8s.io/${p.version}`,
  kind: 'ConversionReview',
  response: { uid: p.uid, result: { status: 'Success' }, convertedObjects },
});

describe('a webhook conversion of one object', () => {
  const input = { object: crontab('a', 'v1') };

  it('sends one object and keeps only labels and annotations of the answer in metadata', () => {
    const p = plan(input, `${G}/v2`);
    expect(p.review).toEqual({
      kind: 'ConversionReview',
      apiVersion: 'apiextensions.k8s.io/v1',
      request: { uid: 'the-uid', desiredAPIVersion: `${G}/v2`, objects: [input.object] },
    });
    const out = finishWebhookConversion(input, `${G}/v2`, p, answer(p, [convertLikeAWebhook(input.object, `${G}/v2`)]));
    expect(out).toEqual({
      object: {
        apiVersion: `${G}/v2`,
        kind: 'CronTab',
        metadata: { ...input.object.metadata, labels: { app: 'a', converted: 'yes' } },
        spec: { schedule: '* * * * */5' },
      },
    });
    expect(input.object.apiVersion).toBe(`${G}/v1`);
  });

  it('needs no call for an object at the desired version or an empty object', () => {
    expect(planWebhookConversion(input, `${G}/v1`, ['v1'], 'u')).toEqual({ done: input });
    const empty = { object: { apiVersion: `${G}/v1`, kind: 'CronTab' } as ApiObject };
    expect(planWebhookConversion(empty, `${G}/v2`, ['v1'], 'u')).toEqual({
      done: { object: { apiVersion: `${G}/v2`, kind: 'CronTab' } },
    });
  });

  it('refuses unsupported review versions even with nothing to convert', () => {
    expect(() => planWebhookConversion(input, `${G}/v1`, ['v2'], 'u')).toThrow(
      'no supported conversion review versions',
    );
  });

  const gvk = `${G}/v1, Kind=CronTab`;
  const good = () => convertLikeAWebhook(input.object, `${G}/v2`);
  it.each<{ name: string; objects: unknown[]; message: string; type: string }>([
    {
      name: 'two objects for one',
      objects: [good(), good()],
      message: `conversion webhook for ${gvk} returned 2 objects, expected 1`,
      type: 'conversion_webhook_partial_response_failure',
    },
    {
      name: 'the wrong version',
      objects: [{ ...good(), apiVersion: `${G}/v3` }],
      message: `conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${G}/v2, received ${G}/v3)`,
      type: 'conversion_webhook_invalid_converted_object_failure',
    },
    {
      name: 'another kind',
      objects: [{ ...good(), kind: 'Other' }],
      message: `conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected CronTab, received Other)`,
      type: 'conversion_webhook_invalid_converted_object_failure',
    },
    {
      name: 'no kind',
      objects: [{ apiVersion: `${G}/v2`, metadata: {} }],
      message: `Object 'Kind' is missing in '{"apiVersion":"${G}/v2","metadata":{}}'`,
      type: 'conversion_webhook_invalid_converted_object_failure',
    },
    {
      name: 'a renamed object',
      objects: [{ ...good(), metadata: { ...input.object.metadata, name: 'b' } }],
      message: `conversion webhook for ${gvk} returned invalid object: must have the same name: a != b`,
      type: 'conversion_webhook_invalid_converted_object_failure',
    },
    {
      name: 'an invalid label',
      objects: [{ ...good(), metadata: { ...input.object.metadata, labels: { app: '-x' } } }],
      message: `conversion webhook for ${gvk} returned invalid metadata: metadata.labels: Invalid value: "-x": a valid label must be`,
      type: 'conversion_webhook_invalid_converted_object_failure',
    },
  ])('refuses $name', ({ objects, message, type }) => {
    const p = plan(input, `${G}/v2`);
    expect(() => finishWebhookConversion(input, `${G}/v2`, p, answer(p, objects))).toThrow(
      expect.objectContaining({ message: expect.stringContaining(message), failureType: type }),
    );
  });

  it.each<{ name: string; answer: (p: Sent) => Record<string, unknown>; message: string; type: string }>([
    {
      name: 'a failed result',
      answer: (p) => ({ ...answer(p, []), response: { uid: p.uid, result: { status: 'Failure', message: 'nope' } } }),
      message: `conversion webhook for ${gvk} failed: nope`,
      type: 'conversion_webhook_malformed_response_failure',
    },
    {
      name: 'another uid',
      answer: (p) => ({ ...answer(p, []), response: { uid: 'x', result: { status: 'Success' } } }),
      message: `conversion webhook for ${gvk} failed: expected response.uid="the-uid", got "x"`,
      type: 'conversion_webhook_malformed_response_failure',
    },
    {
      name: 'a review of another version',
      answer: (p) => ({ ...answer(p, [good()]), apiVersion: 'apiextensions.k8s.io/v1beta1' }),
      message: `conversion webhook for ${gvk} failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion`,
      type: 'conversion_webhook_call_failure',
    },
  ])('refuses $name', ({ answer: make, message, type }) => {
    const p = plan(input, `${G}/v2`);
    expect(() => finishWebhookConversion(input, `${G}/v2`, p, make(p))).toThrow(
      expect.objectContaining({ message, failureType: type }),
    );
  });
});

describe('a webhook conversion of a list (one review for the items not at the desired version)', () => {
  const input = { list: list(crontab('a', 'v1'), crontab('b', 'v2'), crontab('c', 'v1')) };

  it('sends only the items to convert and puts the answers back in place', () => {
    const p = plan(input, `${G}/v2`, ['v1beta1', 'v1']);
    expect(p.version).toBe('v1beta1');
    const sent = (p.review.request as { objects: ApiObject[] }).objects;
    expect(sent.map((o) => o.metadata.name)).toEqual(['a', 'c']);
    const out = finishWebhookConversion(
      input,
      `${G}/v2`,
      p,
      answer(
        p,
        sent.map((o) => convertLikeAWebhook(o, `${G}/v2`)),
      ),
    );
    if (!('list' in out)) throw new Error('expected a list');
    expect(out.list.apiVersion).toBe(`${G}/v2`);
    expect(out.list.items.map((o) => [o.metadata.name, o.apiVersion, o.spec])).toEqual([
      ['a', `${G}/v2`, { schedule: '* * * * */5' }],
      ['b', `${G}/v2`, { cronSpec: '* * * * */5' }],
      ['c', `${G}/v2`, { schedule: '* * * * */5' }],
    ]);
    expect(out.list.items[0]!.metadata.resourceVersion).toBe('7');
    expect(input.list.items[0]!.apiVersion).toBe(`${G}/v1`);
  });

  it('sets only the list apiVersion when every item is there already', () => {
    const there = { list: { ...list(crontab('b', 'v2')), apiVersion: `${G}/v1` } };
    expect(planWebhookConversion(there, `${G}/v2`, ['v1'], 'u')).toEqual({
      done: { list: { ...there.list, apiVersion: `${G}/v2` } },
    });
  });

  const gvk = `${G}/v1, Kind=CronTabList`;
  it.each([
    {
      name: 'a wrong version at the second converted index',
      fix: (objs: Record<string, unknown>[]) => [objs[0], { ...objs[1], apiVersion: `${G}/v1` }],
      message: `conversion webhook for ${gvk} returned invalid converted object at index 1: invalid groupVersion (expected ${G}/v2, received ${G}/v1)`,
    },
    {
      name: 'a changed uid',
      fix: (objs: Record<string, unknown>[]) => [
        { ...objs[0], metadata: { ...(objs[0]!.metadata as object), uid: 'other' } },
        objs[1],
      ],
      message: `conversion webhook for ${gvk} returned invalid converted object at index 0: must have the same UID: uid-a != other`,
    },
    {
      name: 'missing metadata',
      fix: (objs: Record<string, unknown>[]) => [objs[0], { ...objs[1], metadata: undefined }],
      message: `conversion webhook for ${gvk} returned invalid converted object at index 1: must have the same name: c != `,
    },
    {
      name: 'a null object',
      fix: (objs: Record<string, unknown>[]) => [null, objs[1]],
      message: `conversion webhook for ${gvk} returned invalid converted object at index 0: unexpected end of JSON input`,
    },
  ])('refuses $name', ({ fix, message }) => {
    const p = plan(input, `${G}/v2`);
    const sent = (p.review.request as { objects: ApiObject[] }).objects;
    const objects = fix(sent.map((o) => convertLikeAWebhook(o, `${G}/v2`)));
    expect(() => finishWebhookConversion(input, `${G}/v2`, p, answer(p, JSON.parse(JSON.stringify(objects))))).toThrow(
      message,
    );
  });
});

describe('checkConversionVersions and nopConvert (upstream crConverter, nopConverter)', () => {
  const valid = new Set([`${G}/v1`, `${G}/v2`]);
  it.each([
    {
      input: { object: crontab('a', 'v1') },
      to: `${G}/v3`,
      message: `request to convert CR to an invalid group/version: ${G}/v3`,
    },
    {
      input: { object: crontab('a', 'v9') },
      to: `${G}/v2`,
      message: `request to convert CR from an invalid group/version: ${G}/v9`,
    },
    {
      input: { list: list(crontab('a', 'v1'), crontab('b', 'v7')) },
      to: `${G}/v2`,
      message: `request to convert CR list failed, list index 1 has invalid group/version: ${G}/v7`,
    },
  ])('$message', ({ input, to, message }) => {
    expect(() => checkConversionVersions(valid, input, to)).toThrow(message);
  });

  it('None changes only apiVersion, on a copy', () => {
    const input = { list: list(crontab('a', 'v1'), crontab('b', 'v2')) };
    const out = nopConvert(input, `${G}/v2`);
    expect(out.list.apiVersion).toBe(`${G}/v2`);
    expect(out.list.items).toEqual(input.list.items.map((o) => ({ ...o, apiVersion: `${G}/v2` })));
    expect(input.list.items[0]!.apiVersion).toBe(`${G}/v1`);
  });
});

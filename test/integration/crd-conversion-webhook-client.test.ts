/**
 * The conversion webhook client against a real HTTPS webhook (upstream
 * test/e2e/apimachinery/crd_conversion_webhook.go's webhook converts v1 <-> v2 of a CronTab-like
 * kind): ConversionReviews sent to a URL and to a Service, with the caBundle, one review per list,
 * and upstream's errors when the webhook refuses, answers badly, is down, slow or untrusted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { ApiObject } from '../../src/api/object.js';
import type { CustomResourceDefinition } from '../../src/resources/customresourcedefinitions/customresourcedefinitions.schema.js';
import { customResourceConverter } from '../../src/controllers/crd-conversion/converter.js';
import { createConversionMetrics } from '../../src/controllers/crd-conversion/metrics.js';
import type { ServiceResolver } from '../../src/admission/webhooks/service-resolver.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';

const G = 'stable.example.com';
const GVK1 = `${G}/v1, Kind=E2e-test-crd-webhook`;

let server: WebhookServer;
beforeAll(async () => {
  server = await startWebhookServer(['e2e-test-crd-conversion-webhook.conv-ns.svc']);
  // As upstream's e2e converter: v1 `hostPort` <-> v2 `host` and `port`, in one review for all objects.
  server.on('/crdconvert', (request, review) => {
    const objects = (request.objects as Record<string, any>[]).map((o) => {
      const to = request.desiredAPIVersion as string;
      const out: Record<string, any> = { ...o, apiVersion: to };
      if (to.endsWith('/v2') && o.hostPort !== undefined) {
        const [host, port] = String(o.hostPort).split(':');
        delete out.hostPort;
        Object.assign(out, { host, port });
      } else if (to.endsWith('/v1') && o.host !== undefined) {
        out.hostPort = `${o.host}:${o.port}`;
        delete out.host;
        delete out.port;
      }
      // Only labels and annotations of the answer's metadata are kept.
      out.metadata = { ...o.metadata, generation: 42, labels: { ...o.metadata.labels, converted: 'true' } };
      return out;
    });
    return {
      raw: {
        apiVersion: review.apiVersion,
        kind: 'ConversionReview',
        response: { uid: request.uid, convertedObjects: objects, result: { status: 'Success' } },
      },
    };
  });
  server.on('/refuse', (request, review) => ({
    raw: {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: {
        uid: request.uid,
        result: { status: 'Failure', message: 'conversion of this object is not allowed' },
      },
    },
  }));
  server.on('/wrong-uid', (_request, review) => ({
    raw: {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: { uid: 'x', result: { status: 'Success' } },
    },
  }));
  server.on('/error', () => ({ raw: 'internal failure', status: 500 }));
  server.on('/slow', () => new Promise((r) => setTimeout(() => r({ raw: {} }), 3000)));
});
afterAll(() => server?.close());

type ClientConfig = NonNullable<NonNullable<CustomResourceDefinition['spec']['conversion']>['webhook']>['clientConfig'];
const crd = (clientConfig: ClientConfig, reviewVersions = ['v1', 'v1beta1'], strategy = 'Webhook') =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `e2e-test-crd-webhooks.${G}` },
    spec: {
      group: G,
      names: { plural: 'e2e-test-crd-webhooks', kind: 'E2e-test-crd-webhook' },
      scope: 'Namespaced',
      versions: [
        { name: 'v1', served: true, storage: true },
        { name: 'v2', served: true, storage: false },
      ],
      conversion: { strategy, webhook: { clientConfig, conversionReviewVersions: reviewVersions } },
    },
  }) satisfies CustomResourceDefinition;

const cr = (name: string, v: 'v1' | 'v2'): ApiObject => ({
  apiVersion: `${G}/${v}`,
  kind: 'E2e-test-crd-webhook',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, generation: 1, labels: { app: name } },
  ...(v === 'v1' ? { hostPort: 'localhost:8080' } : { host: 'localhost', port: '8080' }),
});

const noServices: ServiceResolver = async (_ns, name) => {
  throw new Error(`service ${JSON.stringify(name)} not found`);
};
const urlConfig = (path: string) => ({ url: server.url(path), caBundle: server.caBundle });

describe('conversion webhook client', () => {
  it('converts an object through a URL webhook trusted by its caBundle', async () => {
    const registry = new Registry();
    const converter = customResourceConverter(crd(urlConfig('/crdconvert')), {
      resolve: noServices,
      metrics: createConversionMetrics(registry),
    });
    const before = server.received('/crdconvert').length;
    const out = await converter.convertObject(cr('a', 'v1'), `${G}/v2`);
    expect(out).toEqual({
      apiVersion: `${G}/v2`,
      kind: 'E2e-test-crd-webhook',
      metadata: { ...cr('a', 'v1').metadata, labels: { app: 'a', converted: 'true' } },
      host: 'localhost',
      port: '8080',
    });
    const [review] = server.received('/crdconvert').slice(before);
    expect(review).toMatchObject({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { desiredAPIVersion: `${G}/v2`, objects: [cr('a', 'v1')] },
    });
    expect(review.request.uid).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing is sent for an object already at the desired version.
    expect(await converter.convertObject(out, `${G}/v2`)).toBe(out);
    expect(server.received('/crdconvert').length).toBe(before + 1);
    const text = await registry.metrics();
    expect(text).toContain('apiserver_conversion_webhook_request_total{result="success",failure_type=""} 2');
    expect(text).toMatch(
      /apiserver_crd_conversion_webhook_duration_seconds_count\{crd_name="e2e-test-crd-webhooks.stable.example.com",from_version="v1",to_version="v2",succeeded="true"\} 1/,
    );
  });

  it('sends one v1beta1 review for the items of a list not at the desired version', async () => {
    const converter = customResourceConverter(crd(urlConfig('/crdconvert'), ['v1beta1']), { resolve: noServices });
    const before = server.received('/crdconvert').length;
    const list = {
      apiVersion: `${G}/v2`,
      kind: 'E2e-test-crd-webhookList',
      metadata: {},
      items: [cr('a', 'v1'), cr('b', 'v2'), cr('c', 'v1')],
    };
    const out = await converter.convertList(list, `${G}/v1`);
    const received = server.received('/crdconvert').slice(before);
    expect(received).toHaveLength(1);
    expect(received[0].apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    expect(received[0].request.objects.map((o: ApiObject) => o.metadata.name)).toEqual(['b']);
    expect(out.apiVersion).toBe(`${G}/v1`);
    expect(out.items.map((o) => [o.metadata.name, o.apiVersion, o.hostPort])).toEqual([
      ['a', `${G}/v1`, 'localhost:8080'],
      ['b', `${G}/v1`, 'localhost:8080'],
      ['c', `${G}/v1`, 'localhost:8080'],
    ]);
    expect(list.items[1]!.apiVersion).toBe(`${G}/v2`);
  });

  it('converts storage objects as storage asks: several in one review, in order', async () => {
    const converter = customResourceConverter(crd(urlConfig('/crdconvert')), { resolve: noServices });
    const before = server.received('/crdconvert').length;
    const out = await converter.convertObjects([cr('a', 'v1'), cr('b', 'v1')], `${G}/v2`);
    expect(out.map((o) => [o.metadata.name, o.apiVersion, o.host])).toEqual([
      ['a', `${G}/v2`, 'localhost'],
      ['b', `${G}/v2`, 'localhost'],
    ]);
    expect(server.received('/crdconvert').length).toBe(before + 1);
    expect(await converter.convertObjects([], `${G}/v2`)).toEqual([]);
  });

  it('calls a Service webhook at a resolved endpoint, verified as <name>.<namespace>.svc', async () => {
    const calls: unknown[] = [];
    const resolve: ServiceResolver = async (namespace, name, port) => {
      calls.push([namespace, name, port]);
      return { host: '127.0.0.1', port: server.port };
    };
    const service = { namespace: 'conv-ns', name: 'e2e-test-crd-conversion-webhook', path: '/crdconvert', port: 9443 };
    const converter = customResourceConverter(crd({ service, caBundle: server.caBundle }), { resolve });
    const out = await converter.convertObject(cr('s', 'v2'), `${G}/v1`);
    expect(out.hostPort).toBe('localhost:8080');
    expect(calls).toEqual([['conv-ns', 'e2e-test-crd-conversion-webhook', 9443]]);
    const missing = customResourceConverter(crd({ service, caBundle: server.caBundle }), { resolve: noServices });
    await expect(missing.convertObject(cr('s', 'v2'), `${G}/v1`)).rejects.toMatchObject({
      code: 500,
      message: `conversion webhook for ${G}/v2, Kind=E2e-test-crd-webhook failed: Post "https://e2e-test-crd-conversion-webhook.conv-ns.svc:9443/crdconvert?timeout=30s": service "e2e-test-crd-conversion-webhook" not found`,
    });
  });

  it.each([
    {
      name: 'a refusal',
      config: () => urlConfig('/refuse'),
      message: () => `conversion webhook for ${GVK1} failed: conversion of this object is not allowed`,
      failure: 'conversion_webhook_malformed_response_failure',
    },
    {
      name: 'an answer for another request',
      config: () => urlConfig('/wrong-uid'),
      message: () =>
        new RegExp(`^conversion webhook for ${GVK1} failed: expected response.uid="[0-9a-f-]{36}", got "x"$`),
      failure: 'conversion_webhook_malformed_response_failure',
    },
    {
      name: 'a server error',
      config: () => urlConfig('/error'),
      message: () =>
        `conversion webhook for ${GVK1} failed: an error on the server ("unknown") has prevented the request from succeeding`,
      failure: 'conversion_webhook_call_failure',
    },
    {
      name: 'an untrusted certificate',
      config: () => ({ url: server.url('/crdconvert') }),
      message: () =>
        `conversion webhook for ${GVK1} failed: Post "${server.url('/crdconvert')}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      failure: 'conversion_webhook_call_failure',
    },
    {
      name: 'a webhook that is down',
      config: () => ({ url: 'https://127.0.0.1:1/convert', caBundle: server.caBundle }),
      message: () =>
        `conversion webhook for ${GVK1} failed: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused`,
      failure: 'conversion_webhook_call_failure',
    },
  ])('fails with upstream message on $name', async ({ config, message, failure }) => {
    const registry = new Registry();
    const converter = customResourceConverter(crd(config()), {
      resolve: noServices,
      metrics: createConversionMetrics(registry),
    });
    const want = message();
    await expect(converter.convertObject(cr('a', 'v1'), `${G}/v2`)).rejects.toMatchObject({
      code: 500,
      reason: '',
      message: typeof want === 'string' ? want : expect.stringMatching(want),
    });
    expect(await registry.metrics()).toContain(
      `apiserver_conversion_webhook_request_total{result="failure",failure_type="${failure}"} 1`,
    );
  });

  it('gives up on a slow webhook at its deadline', async () => {
    const converter = customResourceConverter(crd(urlConfig('/slow')), { resolve: noServices, timeoutSeconds: 1 });
    const started = Date.now();
    await expect(converter.convertObject(cr('a', 'v1'), `${G}/v2`)).rejects.toMatchObject({
      message: `conversion webhook for ${GVK1} failed: Post "${server.url('/slow')}?timeout=1s": context deadline exceeded`,
    });
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('refuses versions the definition does not have, and converts None by apiVersion alone', async () => {
    const webhook = customResourceConverter(crd(urlConfig('/crdconvert')), { resolve: noServices });
    await expect(webhook.convertObject(cr('a', 'v1'), `${G}/v3`)).rejects.toMatchObject({
      code: 500,
      message: `request to convert CR to an invalid group/version: ${G}/v3`,
    });
    const none = customResourceConverter(crd(urlConfig('/refuse'), ['v1'], 'None'), { resolve: noServices });
    expect(await none.convertObject(cr('a', 'v1'), `${G}/v2`)).toEqual({ ...cr('a', 'v1'), apiVersion: `${G}/v2` });
    expect(() => customResourceConverter(crd(urlConfig('/x'), ['v1'], 'Other'), { resolve: noServices })).toThrow(
      `unknown conversion strategy "Other" for CRD e2e-test-crd-webhooks.${G}`,
    );
  });
});

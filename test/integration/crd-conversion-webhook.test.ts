/**
 * Custom resources converted by a conversion webhook, served through the API: the two cases of
 * upstream's e2e test/e2e/apimachinery/crd_conversion_webhook.go ("should be able to convert
 * from CR v1 to CR v2", "should be able to convert a non homogeneous list of CRs") with the
 * converter of upstream's e2e image (v1 `hostPort: "host:port"` <-> v2 `host` and `port`), and
 * what they imply: watches and writes through the non-storage version, and a failing webhook
 * answered as upstream (500 with the webhook's message).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { CRDS } from '../helpers/upstream-crds.js';
import { eventually } from './admission-webhooks-fixtures.js';
import { openWatch } from '../helpers/watch-stream.js';

const srv = useTestServer();
let hook: WebhookServer;
const G = 'stable.example.com';

/** Upstream's e2e converter (test/images/agnhost/crd-conversion-webhook/converter/example_converter.go). */
function convert(o: Record<string, any>, to: string): Record<string, any> | string {
  const out: Record<string, any> = { ...o, apiVersion: to };
  if (to.endsWith('/v2') && o.apiVersion.endsWith('/v1')) {
    if (o.hostPort !== undefined) {
      const parts = String(o.hostPort).split(':');
      if (parts.length !== 2) return `invalid hostPort value \`${o.hostPort}\``;
      delete out.hostPort;
      [out.host, out.port] = parts;
    }
  } else if (to.endsWith('/v1') && o.apiVersion.endsWith('/v2')) {
    if (o.host !== undefined) {
      out.hostPort = `${o.host}:${o.port}`;
      delete out.host;
      delete out.port;
    }
  }
  return out;
}

beforeAll(async () => {
  hook = await startWebhookServer();
  hook.on('/crdconvert', (request, review) => {
    const converted = (request.objects as Record<string, any>[]).map((o) => convert(o, request.desiredAPIVersion));
    const failed = converted.find((c) => typeof c === 'string');
    return {
      raw: {
        apiVersion: review.apiVersion,
        kind: 'ConversionReview',
        response: failed
          ? { uid: request.uid, result: { status: 'Failure', message: failed } }
          : { uid: request.uid, convertedObjects: converted, result: { status: 'Success' } },
      },
    };
  });
});
afterAll(() => hook.close());

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

const kindOf = (plural: string) => `E2eTestCrdWebhook${plural[0]!.toUpperCase()}${plural.slice(1, -1)}`;

function definition(plural: string, storage: 'v1' | 'v2' = 'v1') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      // Kinds must differ between the definitions of one group.
      names: { plural, singular: plural.slice(0, -1), kind: kindOf(plural), listKind: `${kindOf(plural)}List` },
      versions: ['v1', 'v2'].map((name) => ({ name, served: true, storage: name === storage, schema })),
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: hook.url('/crdconvert'), caBundle: hook.caBundle },
          conversionReviewVersions: ['v1', 'v1beta1'],
        },
      },
    },
  };
}

async function establish(def: ReturnType<typeof definition>): Promise<void> {
  expect((await srv.api('POST', CRDS, def)).status).toBe(201);
  const path = `/apis/${G}/v2/namespaces/default/${def.spec.names.plural}`;
  const served = await eventually(
    () => srv.api('GET', path),
    (r) => r.status === 200,
  );
  expect(served.status).toBe(200);
}

const path = (plural: string, version: string, name = '') =>
  `/apis/${G}/${version}/namespaces/default/${plural}${name ? `/${name}` : ''}`;

describe('a conversion webhook (upstream crd_conversion_webhook.go)', () => {
  it('converts a CR created at v1 when it is read at v2', async () => {
    const plural = 'convone';
    await establish(definition(plural));
    const cr = {
      apiVersion: `${G}/v1`,
      kind: kindOf(plural),
      metadata: { name: 'cr-instance-1' },
      hostPort: 'localhost:8080',
    };
    expect((await srv.api('POST', path(plural, 'v1'), cr)).status).toBe(201);
    const v2 = await srv.api('GET', path(plural, 'v2', 'cr-instance-1'));
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ apiVersion: `${G}/v2`, host: 'localhost', port: '8080' });
    expect(v2.body.hostPort).toBeUndefined();
    // The review the server sent: v1 first of the definition's review versions.
    const review = hook.received('/crdconvert').at(-1);
    expect(review).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' });
    expect(review.request.desiredAPIVersion).toBe(`${G}/v2`);
  });

  it('converts a non homogeneous list of CRs', async () => {
    const plural = 'convlists';
    await establish(definition(plural));
    const v1 = {
      apiVersion: `${G}/v1`,
      kind: kindOf(plural),
      metadata: { name: 'cr-instance-1' },
      hostPort: 'localhost:8080',
    };
    expect((await srv.api('POST', path(plural, 'v1'), v1)).status).toBe(201);
    // Storage moves to v2; the first object stays stored at v1.
    const crd = (await srv.api('GET', `${CRDS}/${plural}.${G}`)).body;
    crd.spec.versions = definition(plural, 'v2').spec.versions;
    expect((await srv.api('PUT', `${CRDS}/${plural}.${G}`, crd)).status).toBe(200);
    await eventually(
      () =>
        srv.api('POST', path(plural, 'v2'), {
          apiVersion: `${G}/v2`,
          kind: kindOf(plural),
          metadata: { name: 'cr-instance-2' },
          host: 'localhost',
          port: '8080',
        }),
      (r) => r.status === 201,
    );
    const listV1 = await srv.api('GET', path(plural, 'v1'));
    expect(listV1.body.items.map((i: any) => [i.apiVersion, i.metadata.name, i.hostPort, i.host])).toEqual([
      [`${G}/v1`, 'cr-instance-1', 'localhost:8080', undefined],
      [`${G}/v1`, 'cr-instance-2', 'localhost:8080', undefined],
    ]);
    const listV2 = await srv.api('GET', path(plural, 'v2'));
    expect(listV2.body.items.map((i: any) => [i.apiVersion, i.metadata.name, i.host, i.port, i.hostPort])).toEqual([
      [`${G}/v2`, 'cr-instance-1', 'localhost', '8080', undefined],
      [`${G}/v2`, 'cr-instance-2', 'localhost', '8080', undefined],
    ]);
  });

  it('converts watch events and writes made through the version that is not stored', async () => {
    const plural = 'convwatches';
    await establish(definition(plural));
    const list = await srv.api('GET', path(plural, 'v2'));
    const rv = list.body.metadata.resourceVersion;
    const events = await openWatch(
      `${srv.url}${path(plural, 'v2')}?watch=true&resourceVersion=${rv}`,
      TEST_TOKEN,
      srv.agent,
    );
    const body = {
      apiVersion: `${G}/v2`,
      kind: kindOf(plural),
      metadata: { name: 'w' },
      host: 'example.com',
      port: '443',
    };
    const created = await srv.api('POST', path(plural, 'v2'), body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: `${G}/v2`, host: 'example.com', port: '443' });
    // Stored at v1: read at v1 it has the v1 shape.
    expect((await srv.api('GET', path(plural, 'v1', 'w'))).body).toMatchObject({ hostPort: 'example.com:443' });
    const updated = await srv.api('PUT', path(plural, 'v2', 'w'), { ...created.body, port: '8443' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ host: 'example.com', port: '8443' });
    const seen = await events.next(2);
    expect(seen.map((e) => [e.type, e.object.apiVersion, e.object.port])).toEqual([
      ['ADDED', `${G}/v2`, '443'],
      ['MODIFIED', `${G}/v2`, '8443'],
    ]);
    events.close();
  });

  it('answers 500 with the webhook’s message when it refuses a conversion', async () => {
    const plural = 'convfails';
    await establish(definition(plural));
    const bad = { apiVersion: `${G}/v1`, kind: kindOf(plural), metadata: { name: 'bad' }, hostPort: 'no-port' };
    expect((await srv.api('POST', path(plural, 'v1'), bad)).status).toBe(201);
    const got = await srv.api('GET', path(plural, 'v2', 'bad'));
    expect(got.status).toBe(500);
    expect(got.body.message).toBe(
      `conversion webhook for ${G}/v1, Kind=${kindOf(plural)} failed: invalid hostPort value \`no-port\``,
    );
    // The version stored is still served.
    expect((await srv.api('GET', path(plural, 'v1', 'bad'))).status).toBe(200);
  });
});

/**
 * Admission webhook policies, as upstream's e2e (test/e2e/apimachinery/webhook.go) and the
 * plugin's unit tests exercise them: failurePolicy Fail and Ignore when the webhook is down,
 * slow (timeoutSeconds 1) or answers nonsense; namespace and object selectors; sideEffects with
 * dry run; reinvocationPolicy IfNeeded; a webhook reached through a Service; a CA that does not
 * sign the webhook's certificate.
 */
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { configuration, eventually, MUTATING, VALIDATING } from './admission-webhooks-fixtures.js';

const srv = useTestServer();
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer(['webhook-svc.webhooks.svc']);
});
afterAll(() => hook.close());

const ns = (name: string) => `/api/v1/namespaces/${name}/configmaps`;
const cm = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data: { a: 'b' },
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Make a namespace with `labels`. */
async function namespace(name: string, labels: Record<string, string> = {}) {
  const res = await srv.api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels },
  });
  expect(res.status, res.text).toBe(201);
}

/** Create a validating configuration for ConfigMaps in namespace `scope` (label `scope=<scope>`) and wait until it applies. */
async function validatingIn(scope: string, webhook: Record<string, unknown> & { name: string }) {
  await namespace(scope, { scope });
  const res = await srv.api(
    'POST',
    VALIDATING,
    configuration('ValidatingWebhookConfiguration', scope, [
      { namespaceSelector: { matchLabels: { scope } }, ...webhook },
    ]),
  );
  expect(res.status, res.text).toBe(201);
}

describe('failurePolicy', () => {
  it('Fail refuses with 500 when the webhook is down; Ignore lets the request through', async () => {
    const port = await closedPort();
    const url = `https://127.0.0.1:${port}/down`;
    await validatingIn('down-fail', { name: 'down-fail.k8s.io', url, caBundle: hook.caBundle, failurePolicy: 'Fail' });
    const res = await eventually(
      () => srv.api('POST', ns('down-fail'), cm('x')),
      (r) => r.status === 500,
    );
    expect(res.body).toMatchObject({ reason: 'InternalError', code: 500 });
    const detail = `failed calling webhook "down-fail.k8s.io": failed to call webhook: Post "https://127.0.0.1:${port}/down?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect(res.body.message).toBe(`Internal error occurred: ${detail}`);
    expect(res.body.details.causes).toEqual([{ message: detail }]);

    // Under Ignore (beside a webhook that answers, to see the configuration in force) it passes.
    await validatingIn('down-ignore', {
      name: 'down-ignore.k8s.io',
      url,
      caBundle: hook.caBundle,
      failurePolicy: 'Ignore',
    });
    const res2 = await srv.api(
      'POST',
      VALIDATING,
      configuration('ValidatingWebhookConfiguration', 'down-ignore-witness', [
        {
          name: 'witness.k8s.io',
          url: hook.url('/witness'),
          caBundle: hook.caBundle,
          namespaceSelector: { matchLabels: { scope: 'down-ignore' } },
        },
      ]),
    );
    expect(res2.status).toBe(201);
    const ok = await eventually(
      () => srv.api('POST', ns('down-ignore'), cm(`x-${Date.now()}`)),
      () => hook.received('/witness').length > 0,
    );
    expect(ok.status, ok.text).toBe(201);
  });

  it('a slow webhook (timeoutSeconds 1) fails within about a second under Fail and is passed over under Ignore', async () => {
    hook.on('/slow', () => new Promise((r) => setTimeout(() => r({ allowed: true }), 3000)));
    const slow = { url: hook.url('/slow'), caBundle: hook.caBundle, timeoutSeconds: 1 };
    await validatingIn('slow-fail', { name: 'slow-fail.k8s.io', ...slow, failurePolicy: 'Fail' });
    const res = await eventually(
      () => srv.api('POST', ns('slow-fail'), cm('x')),
      (r) => r.status === 500,
    );
    expect(res.body.message).toBe(
      `Internal error occurred: failed calling webhook "slow-fail.k8s.io": failed to call webhook: Post "${hook.url('/slow')}?timeout=1s": context deadline exceeded`,
    );
    const started = Date.now();
    expect((await srv.api('POST', ns('slow-fail'), cm('y'))).status).toBe(500);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2500);

    await validatingIn('slow-ignore', { name: 'slow-ignore.k8s.io', ...slow, failurePolicy: 'Ignore' });
    const calls = () => hook.received('/slow').filter((r) => r.request.namespace === 'slow-ignore').length;
    const ok = await eventually(
      () => srv.api('POST', ns('slow-ignore'), cm(`x-${Date.now()}`)),
      () => calls() > 0,
    );
    expect(ok.status).toBe(201);
  });

  it('a response with another uid fails the call', async () => {
    hook.on('/bad-uid', () => ({ uid: 'not-the-uid', allowed: true }));
    await validatingIn('bad-uid', { name: 'bad-uid.k8s.io', url: hook.url('/bad-uid'), caBundle: hook.caBundle });
    const res = await eventually(
      () => srv.api('POST', ns('bad-uid'), cm('x')),
      (r) => r.status === 500,
    );
    expect(res.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "bad-uid.k8s.io": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-uid"$/,
    );
  });

  it('a CA that did not sign the webhook certificate fails the call', async () => {
    const other = await startWebhookServer();
    await other.close();
    await validatingIn('bad-ca', { name: 'bad-ca.k8s.io', url: hook.url('/any'), caBundle: other.caBundle });
    const res = await eventually(
      () => srv.api('POST', ns('bad-ca'), cm('x')),
      (r) => r.status === 500,
    );
    expect(res.body.message).toBe(
      `Internal error occurred: failed calling webhook "bad-ca.k8s.io": failed to call webhook: Post "${hook.url('/any')}?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });
});

describe('selectors', () => {
  beforeAll(async () => {
    hook.on('/deny-all', () => ({ allowed: false, status: { message: 'denied' } }));
  });

  it('namespaceSelector: only objects in matching namespaces are sent', async () => {
    await validatingIn('selected', { name: 'selected.k8s.io', url: hook.url('/deny-all'), caBundle: hook.caBundle });
    await namespace('not-selected');
    const denied = await eventually(
      () => srv.api('POST', ns('selected'), cm('x')),
      (r) => r.status === 400,
    );
    expect(denied.body.message).toBe('admission webhook "selected.k8s.io" denied the request: denied');
    expect((await srv.api('POST', ns('not-selected'), cm('x'))).status).toBe(201);
  });

  it('objectSelector: only objects whose labels match, new or old', async () => {
    await validatingIn('objsel', {
      name: 'objsel.k8s.io',
      url: hook.url('/deny-all'),
      caBundle: hook.caBundle,
      objectSelector: { matchExpressions: [{ key: 'skip-webhook', operator: 'DoesNotExist' }] },
    });
    await eventually(
      () => srv.api('POST', ns('objsel'), cm('probe')),
      (r) => r.status === 400,
    );
    expect((await srv.api('POST', ns('objsel'), cm('skipped', { 'skip-webhook': 'yes' }))).status).toBe(201);
    // An update that removes the label: the old object does not match, the new one does.
    const res = await srv.api('PUT', `${ns('objsel')}/skipped`, cm('skipped'));
    expect(res.status).toBe(400);
  });
});

describe('dry run', () => {
  it('refuses a dry run when a webhook may have side effects, and sends dryRun to one that has none', async () => {
    await namespace('dry');
    const v1beta1 = '/apis/admissionregistration.k8s.io/v1beta1/validatingwebhookconfigurations';
    const res = await srv.api('POST', v1beta1, {
      apiVersion: 'admissionregistration.k8s.io/v1beta1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'side-effects' },
      webhooks: [
        {
          name: 'side-effects.k8s.io',
          clientConfig: { url: hook.url('/side-effects'), caBundle: hook.caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'dry' } },
          sideEffects: 'Unknown',
        },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const dry = await eventually(
      () => srv.api('POST', `${ns('dry')}?dryRun=All`, cm('x')),
      (r) => r.status === 400,
    );
    expect(dry.body.message).toBe('admission webhook "side-effects.k8s.io" does not support dry run');
    // v1beta1 defaults: AdmissionReview v1beta1, failurePolicy Ignore; a real write calls it.
    expect((await srv.api('POST', ns('dry'), cm('x'))).status).toBe(201);
    const review = hook.received('/side-effects').at(-1);
    expect(review).toMatchObject({ apiVersion: 'admission.k8s.io/v1beta1', request: { dryRun: false } });

    await validatingIn('dry-none', { name: 'dry-none.k8s.io', url: hook.url('/dry-none'), caBundle: hook.caBundle });
    const ok = await eventually(
      () => srv.api('POST', `${ns('dry-none')}?dryRun=All`, cm('x')),
      () => hook.received('/dry-none').length > 0,
    );
    expect(ok.status).toBe(201);
    expect(hook.received('/dry-none').at(-1).request).toMatchObject({ dryRun: true, options: { dryRun: ['All'] } });
  });
});

describe('reinvocationPolicy IfNeeded', () => {
  it('calls an earlier webhook again when a later one changed the object', async () => {
    await namespace('reinvoke', { scope: 'reinvoke' });
    hook.on('/first', () => ({ allowed: true }));
    hook.on('/second', (req) =>
      req.object.metadata.labels?.second
        ? { allowed: true }
        : { allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { second: 'yes' } }]) },
    );
    const common = { caBundle: hook.caBundle, namespaceSelector: { matchLabels: { scope: 'reinvoke' } } };
    const res = await srv.api(
      'POST',
      MUTATING,
      configuration('MutatingWebhookConfiguration', 'reinvoke', [
        { name: 'first.k8s.io', url: hook.url('/first'), reinvocationPolicy: 'IfNeeded', ...common },
        { name: 'second.k8s.io', url: hook.url('/second'), ...common },
      ]),
    );
    expect(res.status, res.text).toBe(201);
    const created = await eventually(
      () => srv.api('POST', ns('reinvoke'), cm(`x-${Date.now()}`)),
      (r) => r.body?.metadata?.labels?.second === 'yes',
    );
    const name = created.body.metadata.name;
    const first = hook.received('/first').filter((r) => r.request.name === name);
    expect(first.map((r) => r.request.object.metadata.labels ?? {})).toEqual([{}, { second: 'yes' }]);
    expect(hook.received('/second').filter((r) => r.request.name === name)).toHaveLength(1);
  });
});

describe('a webhook behind a Service', () => {
  it('is called at a ready endpoint with the Service name as TLS server name', async () => {
    const ip = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    expect(ip, 'a non-loopback IPv4 address for the Endpoints').toBeDefined();
    await namespace('webhooks');
    const svc = await srv.api('POST', '/api/v1/namespaces/webhooks/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'webhook-svc' },
      spec: { ports: [{ name: 'https', port: 8443, targetPort: 8443 }] },
    });
    expect(svc.status, svc.text).toBe(201);
    const slice = await srv.api('POST', '/apis/discovery.k8s.io/v1/namespaces/webhooks/endpointslices', {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'webhook-svc-1', labels: { 'kubernetes.io/service-name': 'webhook-svc' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [ip], conditions: { ready: true } }],
      ports: [{ name: 'https', port: hook.port, protocol: 'TCP' }],
    });
    expect(slice.status, slice.text).toBe(201);
    hook.on('/svc', () => ({ allowed: false, status: { message: 'via the service' } }));
    await validatingIn('svc-user', {
      name: 'svc.k8s.io',
      clientConfig: {
        service: { namespace: 'webhooks', name: 'webhook-svc', port: 8443, path: '/svc' },
        caBundle: hook.caBundle,
      },
    });
    const res = await eventually(
      () => srv.api('POST', ns('svc-user'), cm('x')),
      (r) => r.status === 400,
    );
    expect(res.body.message).toBe('admission webhook "svc.k8s.io" denied the request: via the service');
  });
});

/**
 * Admission webhooks as upstream's e2e tests use them (test/e2e/apimachinery/webhook.go), with a
 * small HTTPS webhook in the test: a mutating webhook patches ConfigMaps, a validating one
 * refuses with its message, the AdmissionReview carries the request, and custom resources are
 * admitted too. Failure policies, selectors, dry run and reinvocation:
 * admission-webhooks-policies.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { crd, establish } from '../helpers/crds.js';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { configuration, eventually, MUTATING, VALIDATING } from './admission-webhooks-fixtures.js';

const srv = useTestServer();
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
});
afterAll(() => hook.close());

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

describe('a mutating webhook', () => {
  it('patches a ConfigMap on create and sees the AdmissionReview upstream sends', async () => {
    hook.on('/mutate-cm', (req) =>
      req.object?.metadata?.name?.startsWith('mutate')
        ? { allowed: true, ...jsonPatch([{ op: 'add', path: '/data/mutation-stage-1', value: 'yes' }]) }
        : { allowed: true },
    );
    await srv.api(
      'POST',
      MUTATING,
      configuration('MutatingWebhookConfiguration', 'mutate-cm', [
        { name: 'adding-configmap-data-stage-1.k8s.io', url: hook.url('/mutate-cm'), caBundle: hook.caBundle },
      ]),
    );
    const created = await eventually(
      () => srv.api('POST', `${CM}?fieldManager=e2e`, cm(`mutate-${Date.now()}`, { 'mutation-start': 'yes' })),
      (r) => r.body?.data?.['mutation-stage-1'] === 'yes',
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ 'mutation-start': 'yes', 'mutation-stage-1': 'yes' });
    // The object was stored as patched.
    const got = await srv.api('GET', `${CM}/${created.body.metadata.name}`);
    expect(got.body.data['mutation-stage-1']).toBe('yes');
    const review = hook.received('/mutate-cm').at(-1);
    expect(review).toMatchObject({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
    expect(review.request).toMatchObject({
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: created.body.metadata.name,
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'admin', uid: 'uid-admin', groups: expect.arrayContaining(['system:masters']) },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'e2e' },
    });
    expect(review.request.object).toMatchObject({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      data: { 'mutation-start': 'yes' },
    });
  });

  it('patches an update, seeing the old object', async () => {
    const name = `mutate-upd-${Date.now()}`;
    const created = await srv.api('POST', CM, cm(name, { a: '1' }));
    expect(created.status).toBe(201);
    const updated = await srv.api('PUT', `${CM}/${name}`, { ...created.body, data: { a: '2' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data).toEqual({ a: '2', 'mutation-stage-1': 'yes' });
    const review = hook.received('/mutate-cm').at(-1);
    expect(review.request.operation).toBe('UPDATE');
    expect(review.request.options.kind).toBe('UpdateOptions');
    expect(review.request.oldObject.data).toEqual({ a: '1', 'mutation-stage-1': 'yes' });
  });

  it('patches a custom resource', async () => {
    await establish(srv, crd({ group: 'webhook.example.com', plural: 'widgets', kind: 'Widget' }));
    hook.on('/mutate-cr', () => ({
      allowed: true,
      ...jsonPatch([{ op: 'add', path: '/data', value: { 'mutation-stage-1': 'yes' } }]),
    }));
    await srv.api(
      'POST',
      MUTATING,
      configuration(
        'MutatingWebhookConfiguration',
        'mutate-cr',
        [{ name: 'mutate-custom-resource.k8s.io', url: hook.url('/mutate-cr'), caBundle: hook.caBundle }],
        { apiGroups: ['webhook.example.com'], resources: ['widgets'] },
      ),
    );
    const path = '/apis/webhook.example.com/v1/namespaces/default/widgets';
    const created = await eventually(
      () =>
        srv.api('POST', path, {
          apiVersion: 'webhook.example.com/v1',
          kind: 'Widget',
          metadata: { name: `w-${Date.now()}` },
          data: { 'mutation-start': 'yes' },
        }),
      (r) => r.body?.data?.['mutation-stage-1'] === 'yes',
    );
    expect(created.status, created.text).toBe(201);
    const review = hook.received('/mutate-cr').at(-1);
    expect(review.request.kind).toEqual({ group: 'webhook.example.com', version: 'v1', kind: 'Widget' });
    expect(review.request.resource).toEqual({ group: 'webhook.example.com', version: 'v1', resource: 'widgets' });
  });
});

describe('a validating webhook', () => {
  beforeAll(async () => {
    hook.on('/deny', (req) => {
      const data = req.object?.data ?? req.oldObject?.data ?? {};
      if (data['webhook-e2e-test'] === 'webhook-disallow')
        return { allowed: false, status: { code: 403, message: 'the configmap contains unwanted key and value' } };
      if (data['no-code'] === 'true') return { allowed: false, status: { message: 'no code given' } };
      if (data['nothing'] === 'true') return { allowed: false };
      if (data['warn'] === 'true') return { allowed: true, warnings: ['first warning', 'second warning'] };
      if (data['audit'] === 'true') return { allowed: true, auditAnnotations: { checked: 'yes' } };
      return { allowed: true };
    });
    await srv.api(
      'POST',
      VALIDATING,
      configuration(
        'ValidatingWebhookConfiguration',
        'deny-cm',
        [{ name: 'deny-unwanted-configmap-data.k8s.io', url: hook.url('/deny'), caBundle: hook.caBundle }],
        { operations: ['CREATE', 'UPDATE', 'DELETE'] },
      ),
    );
    await eventually(
      () => srv.api('POST', `${CM}?dryRun=All`, cm('probe', { 'webhook-e2e-test': 'webhook-disallow' })),
      (r) => r.status === 403,
    );
  });

  it("refuses with the webhook's code and message", async () => {
    const res = await srv.api('POST', CM, cm('disallowed', { 'webhook-e2e-test': 'webhook-disallow' }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 403,
      message:
        'admission webhook "deny-unwanted-configmap-data.k8s.io" denied the request: the configmap contains unwanted key and value',
    });
    expect((await srv.api('GET', `${CM}/disallowed`)).status).toBe(404);
  });

  it('answers 400 when the status has no code, and says when there is no explanation', async () => {
    const noCode = await srv.api('POST', CM, cm('no-code', { 'no-code': 'true' }));
    expect(noCode.status).toBe(400);
    expect(noCode.body.message).toBe(
      'admission webhook "deny-unwanted-configmap-data.k8s.io" denied the request: no code given',
    );
    const nothing = await srv.api('POST', CM, cm('nothing', { nothing: 'true' }));
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toBe(
      'admission webhook "deny-unwanted-configmap-data.k8s.io" denied the request without explanation',
    );
  });

  it('refuses an update to a refused value, and a delete of an object it refuses', async () => {
    const created = await srv.api('POST', CM, cm('flip', { ok: 'yes' }));
    expect(created.status).toBe(201);
    const res = await srv.api(
      'PATCH',
      `${CM}/flip`,
      { data: { 'webhook-e2e-test': 'webhook-disallow' } },
      {
        'content-type': 'application/merge-patch+json',
      },
    );
    expect(res.status).toBe(403);
    const review = hook.received('/deny').at(-1);
    expect(review.request).toMatchObject({ operation: 'UPDATE', options: { kind: 'PatchOptions' } });
    // DELETE: the stored object is the oldObject.
    hook.on('/deny-delete', (req) =>
      req.oldObject?.metadata?.name === 'keep' ? { allowed: false, status: { message: 'keep me' } } : { allowed: true },
    );
    await srv.api(
      'POST',
      VALIDATING,
      configuration(
        'ValidatingWebhookConfiguration',
        'deny-delete',
        [{ name: 'deny-delete.k8s.io', url: hook.url('/deny-delete'), caBundle: hook.caBundle }],
        { operations: ['DELETE'] },
      ),
    );
    expect((await srv.api('POST', CM, cm('keep'))).status).toBe(201);
    const del = await eventually(
      () => srv.api('DELETE', `${CM}/keep?dryRun=All`),
      (r) => r.status === 400,
    );
    expect(del.body.message).toBe('admission webhook "deny-delete.k8s.io" denied the request: keep me');
    const delReview = hook.received('/deny-delete').at(-1);
    expect(delReview.request).toMatchObject({
      operation: 'DELETE',
      name: 'keep',
      object: null,
      dryRun: true,
      options: { kind: 'DeleteOptions', dryRun: ['All'] },
    });
    expect(delReview.request.oldObject.metadata.name).toBe('keep');
    expect((await srv.api('DELETE', `${CM}/keep`)).status).toBe(400);
    expect((await srv.api('DELETE', `${CM}/flip`)).status).toBe(200);
  });

  it("sends the webhook's warnings as Warning headers", async () => {
    const res = await srv.api('POST', CM, cm('warned', { warn: 'true' }));
    expect(res.status).toBe(201);
    expect(res.headers.warning).toEqual(['299 - "first warning"', '299 - "second warning"']);
  });

  it('does not call webhooks for webhook configurations', async () => {
    const watching = configuration(
      'ValidatingWebhookConfiguration',
      'watch-configurations',
      [{ name: 'watch-configurations.k8s.io', url: hook.url('/configurations'), caBundle: hook.caBundle }],
      { apiGroups: ['admissionregistration.k8s.io'], apiVersions: ['*'], resources: ['*'] },
    );
    expect((await srv.api('POST', VALIDATING, watching)).status).toBe(201);
    // Once it is in force (a ConfigMap write sees the configuration made after it), no
    // configuration write has reached it.
    await eventually(
      () => srv.api('POST', `${CM}?dryRun=All`, cm('probe', { 'webhook-e2e-test': 'webhook-disallow' })),
      (r) => r.status === 403,
    );
    const next = configuration('ValidatingWebhookConfiguration', 'later', [
      { name: 'later.k8s.io', url: hook.url('/later'), caBundle: hook.caBundle },
    ]);
    expect((await srv.api('POST', VALIDATING, next)).status).toBe(201);
    expect((await srv.api('DELETE', `${VALIDATING}/later`)).status).toBe(200);
    expect(hook.received('/configurations')).toEqual([]);
  });
});

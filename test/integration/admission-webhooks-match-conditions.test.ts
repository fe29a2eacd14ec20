/**
 * Webhook matchConditions (CEL) as upstream evaluates them
 * (k8s.io/apiserver pkg/admission/plugin/webhook/matchconditions, and upstream's integration test
 * test/integration/apiserver/admissionwebhook/match_conditions_test.go): a false condition skips
 * the webhook; an error refuses the request (403) under failurePolicy Fail and skips the webhook
 * under Ignore; `authorizer` asks the server's authorizer as the requesting user; expressions
 * are compiled when the configuration is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { configuration, eventually, VALIDATING } from './admission-webhooks-fixtures.js';

const srv = useTestServer();
let hook: WebhookServer;
const NS = 'mc';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const BOB = { authorization: 'Bearer other-token' };

const cm = (name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...(labels ? { labels } : {}) },
  data: { a: '1' },
});

/** A validating webhook that refuses every ConfigMap in the test namespace, with `extra` fields. */
const refuser = (name: string, path: string, extra: Record<string, unknown>) =>
  configuration('ValidatingWebhookConfiguration', name, [
    {
      name: `${name}.example.com`,
      url: hook.url(path),
      caBundle: hook.caBundle,
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': NS } },
      ...extra,
    },
  ]);

beforeAll(async () => {
  hook = await startWebhookServer();
  hook.on('/refuse', () => ({ allowed: false, status: { code: 403, message: 'refused by the webhook' } }));
  expect((await srv.api('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  // bob may write ConfigMaps in the namespace but not list Secrets.
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  await srv.api('POST', `${rbac}/namespaces/${NS}/roles`, {
    metadata: { name: 'cm-writer' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }],
  });
  await srv.api('POST', `${rbac}/namespaces/${NS}/rolebindings`, {
    metadata: { name: 'bob' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' },
    subjects: [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.k8s.io' }],
  });
});
afterAll(() => hook.close());

/** Create `body` until the configuration is in force (its webhook has been called or refused). */
async function createOnceInForce(body: unknown, headers?: Record<string, string>) {
  return eventually(
    () => srv.api('POST', CM, body, headers),
    (r) => r.status !== 201,
  );
}

describe('webhook matchConditions', () => {
  it('skips the webhook when a condition is false, calls it when all are true', async () => {
    const conditions = [
      { name: 'not-exempt', expression: "!has(object.metadata.labels) || !('exempt' in object.metadata.labels)" },
      { name: 'is-create', expression: "request.operation == 'CREATE'" },
    ];
    expect(
      (await srv.api('POST', VALIDATING, refuser('mc-basic', '/refuse', { matchConditions: conditions }))).status,
    ).toBe(201);
    const refused = await createOnceInForce(cm('plain'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'admission webhook "mc-basic.example.com" denied the request: refused by the webhook',
    );
    const calls = hook.received('/refuse').length;
    const exempt = await srv.api('POST', CM, cm('exempt-one', { exempt: 'yes' }));
    expect(exempt.status).toBe(201);
    expect(hook.received('/refuse').length).toBe(calls);
    await srv.api('DELETE', `${VALIDATING}/mc-basic`);
  });

  it('refuses with the evaluation error under failurePolicy Fail, skips the webhook under Ignore', async () => {
    const conditions = [{ name: 'labels', expression: "object.metadata.labels.team == 'a'" }];
    await srv.api(
      'POST',
      VALIDATING,
      refuser('mc-fail', '/refuse', { matchConditions: conditions, failurePolicy: 'Fail' }),
    );
    const failed = await createOnceInForce(cm('no-labels'));
    expect(failed.status).toBe(403);
    expect(failed.body).toMatchObject({ reason: 'Forbidden', code: 403 });
    expect(failed.body.message).toBe(
      `configmaps "no-labels" is forbidden: expression 'object.metadata.labels.team == 'a'' resulted in error: no such key: labels`,
    );
    await srv.api('DELETE', `${VALIDATING}/mc-fail`);

    await srv.api(
      'POST',
      VALIDATING,
      refuser('mc-ignore', '/refuse', { matchConditions: conditions, failurePolicy: 'Ignore' }),
    );
    // In force once a ConfigMap of team a is refused by the webhook.
    expect((await createOnceInForce(cm('team-a', { team: 'a' }))).status).toBe(403);
    const calls = hook.received('/refuse').length;
    expect((await srv.api('POST', CM, cm('no-labels-ignored'))).status).toBe(201);
    expect(hook.received('/refuse').length).toBe(calls);
    await srv.api('DELETE', `${VALIDATING}/mc-ignore`);
  });

  it('asks the authorizer as the requesting user', async () => {
    const conditions = [
      {
        name: 'cannot-list-secrets',
        expression: "!authorizer.group('').resource('secrets').namespace('mc').check('list').allowed()",
      },
    ];
    await srv.api('POST', VALIDATING, refuser('mc-authz', '/refuse', { matchConditions: conditions }));
    const asBob = await createOnceInForce(cm('bobs'), BOB);
    expect(asBob.status).toBe(403);
    expect(asBob.body.message).toContain('admission webhook "mc-authz.example.com" denied the request');
    // The admin may list Secrets: the webhook is not called for them.
    expect((await srv.api('POST', CM, cm('admins'))).status).toBe(201);
    await srv.api('DELETE', `${VALIDATING}/mc-authz`);
  });

  it('compiles the expressions when the configuration is written (422 with upstream field paths)', async () => {
    const body = refuser('mc-invalid', '/refuse', {
      matchConditions: [
        { name: 'ok', expression: 'true' },
        { name: 'undeclared', expression: 'params.x == 1' },
        { name: 'not-bool', expression: "'yes'" },
      ],
    });
    const res = await srv.api('POST', VALIDATING, body);
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'webhooks[0].matchConditions[1].expression',
        message: expect.stringMatching(
          /^Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/,
        ),
      },
      {
        reason: 'FieldValueInvalid',
        field: 'webhooks[0].matchConditions[2].expression',
        message: `Invalid value: "'yes'": must evaluate to bool but got string`,
      },
    ]);
  });
});

/**
 * matchPolicy (upstream e2e "should mutate/deny ... with different stored version" and the
 * generic webhook tests): under Equivalent a rule for apps/v1 deployments also matches a
 * request through apps/v1beta1 (the same storage), and the webhook gets the object as apps/v1,
 * with requestKind and requestResource saying how it was sent; its patch lands in the object
 * answered in v1beta1. Under Exact it is not called.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { jsonPatch, startWebhookServer, type WebhookServer } from '../helpers/webhook-server.js';
import { configuration, eventually, MUTATING } from './admission-webhooks-fixtures.js';

const srv = useTestServer();
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
});
afterAll(() => hook.close());

const deployment = (name: string) => ({
  apiVersion: 'apps/v1beta1',
  kind: 'Deployment',
  metadata: { name },
  spec: { template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

it('Equivalent calls the webhook with the version of its rule; Exact does not call it', async () => {
  hook.on('/equivalent', () => ({
    allowed: true,
    ...jsonPatch([{ op: 'add', path: '/metadata/annotations', value: { mutated: 'v1' } }]),
  }));
  const rule = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
  for (const [name, matchPolicy] of [
    ['equivalent', 'Equivalent'],
    ['exact', 'Exact'],
  ])
    expect(
      (
        await srv.api(
          'POST',
          MUTATING,
          configuration(
            'MutatingWebhookConfiguration',
            name,
            [{ name: `${name}.k8s.io`, url: hook.url(`/${name}`), caBundle: hook.caBundle, matchPolicy }],
            rule,
          ),
        )
      ).status,
    ).toBe(201);
  const path = '/apis/apps/v1beta1/namespaces/default/deployments';
  const created = await eventually(
    () => srv.api('POST', path, deployment(`d-${Date.now()}`)),
    (r) => r.body?.metadata?.annotations?.mutated === 'v1',
  );
  expect(created.status, created.text).toBe(201);
  expect(created.body.apiVersion).toBe('apps/v1beta1');
  const review = hook.received('/equivalent').at(-1);
  expect(review.request).toMatchObject({
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    requestKind: { group: 'apps', version: 'v1beta1', kind: 'Deployment' },
    requestResource: { group: 'apps', version: 'v1beta1', resource: 'deployments' },
  });
  expect(review.request.object.apiVersion).toBe('apps/v1');
  expect(hook.received('/exact')).toEqual([]);
  // Through apps/v1 both are called.
  const v1 = await srv.api('POST', '/apis/apps/v1/namespaces/default/deployments', {
    ...deployment('v1-direct'),
    apiVersion: 'apps/v1',
    spec: { ...deployment('v1-direct').spec, selector: { matchLabels: { app: 'v1-direct' } } },
  });
  expect(v1.status, v1.text).toBe(201);
  expect(hook.received('/exact').at(-1).request.requestKind).toEqual({
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
  });
});

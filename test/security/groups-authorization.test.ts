/**
 * The groups' resources and subresources go through authorization on every verb, as core kinds
 * do: a user (bob, token `other-token`) granted only `get`/`list` on deployments and `create` on
 * pods/eviction in `default` is refused every other write of a Deployment (create, update, each
 * patch type, server-side apply, dry run, delete, its scale) and may evict but not delete a pod.
 */
import { beforeAll, expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();
const BOB = { authorization: 'Bearer other-token' };
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'guarded' },
  spec: {
    selector: { matchLabels: { app: 'guarded' } },
    template: { metadata: { labels: { app: 'guarded' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

beforeAll(async () => {
  const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
  expect(
    (
      await srv.api('POST', `${rbac}/roles`, {
        metadata: { name: 'partial' },
        rules: [
          { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] },
          { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
          { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        ],
      })
    ).status,
  ).toBe(201);
  await srv.api('POST', `${rbac}/rolebindings`, {
    metadata: { name: 'partial' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'partial' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
  });
  expect((await srv.api('POST', DEPLOYS, deployment)).status).toBe(201);
  await srv.api('POST', '/api/v1/namespaces/default/pods', {
    metadata: { name: 'evictable' },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  });
});

it('reads, and is refused every write of a Deployment', async () => {
  expect((await srv.api('GET', `${DEPLOYS}/guarded`, undefined, BOB)).status).toBe(200);
  const item = `${DEPLOYS}/guarded`;
  const patch = (type: string, body: unknown, query = '') =>
    srv.api('PATCH', `${item}${query}`, typeof body === 'string' ? body : JSON.stringify(body), {
      ...BOB,
      'content-type': type,
    });
  const answers = [
    await srv.api('POST', DEPLOYS, { ...deployment, metadata: { name: 'other' } }, BOB),
    await srv.api('POST', `${DEPLOYS}?dryRun=All`, { ...deployment, metadata: { name: 'other' } }, BOB),
    await srv.api('PUT', item, deployment, BOB),
    await patch('application/merge-patch+json', { spec: { replicas: 5 } }),
    await patch('application/strategic-merge-patch+json', { spec: { replicas: 5 } }),
    await patch('application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 5 }]),
    await patch('application/apply-patch+yaml', JSON.stringify(deployment), '?fieldManager=bob&force=true'),
    await patch('application/merge-patch+json', { spec: { replicas: 5 } }, '?dryRun=All'),
    await srv.api('PUT', `${item}/scale`, { metadata: { name: 'guarded' }, spec: { replicas: 5 } }, BOB),
    await srv.api('PUT', `${item}/status`, deployment, BOB),
    await srv.api('DELETE', item, undefined, BOB),
    await srv.api('DELETE', DEPLOYS, undefined, BOB),
  ];
  expect(answers.map((a) => [a.status, a.body.reason])).toEqual(answers.map(() => [403, 'Forbidden']));
  expect((await srv.api('GET', item)).body.spec.replicas).toBe(1);
});

it('evicts a pod through pods/eviction, but may not delete it', async () => {
  const pod = '/api/v1/namespaces/default/pods/evictable';
  expect((await srv.api('DELETE', pod, undefined, BOB)).status).toBe(403);
  const evicted = await srv.api(
    'POST',
    `${pod}/eviction`,
    { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evictable' } },
    BOB,
  );
  expect(evicted.status).toBe(201);
  expect((await srv.api('GET', pod)).status).toBe(404);
});

/** OpenAPI v3 documents: what kubectl needs for validation, explain and apply. */
import { expect, it } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

it('indexes api/v1 and security.platform.io/v1 and serves their documents', async () => {
  const index = await srv.api('GET', '/openapi/v3');
  expect(Object.keys(index.body.paths).sort()).toEqual(['api/v1', 'apis/security.platform.io/v1']);
  const url = index.body.paths['api/v1'].serverRelativeURL as string;
  expect(url).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  const doc = await srv.api('GET', url);
  expect(doc.headers['cache-control']).toBe('public, immutable');
  expect(doc.body.openapi).toBe('3.0.0');
  const pod = doc.body.components.schemas['io.k8s.api.core.v1.Pod'];
  expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }]);
  const containers = pod.properties.spec.properties.containers;
  expect(containers).toMatchObject({ type: 'array', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
  expect(containers.items.properties.env).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });
  expect(containers.items.required).toEqual(['name']);
  expect(pod.properties.spec.properties.volumes['x-kubernetes-patch-strategy']).toBe('merge,retainKeys');
  const patch = doc.body.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
  expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
  expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  expect(Object.keys(patch.requestBody.content)).toContain('application/strategic-merge-patch+json');
  expect(doc.body.paths['/api/v1/pods'].get.operationId).toBe('listAllNamespacesNamespacedPod');
  expect((await srv.api('GET', '/openapi/v3/apis/apps/v1')).status).toBe(404);
});

/** OpenAPI v3 and v2 documents: what kubectl needs for validation, explain and apply. */
import { request } from 'undici';
import { expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { decodeSwaggerProtobuf } from '../../src/api/protobuf/openapi-v2.js';
import { TEST_TOKEN, useTestServer } from '../helpers/in-process.js';

const srv = useTestServer();

it('indexes api/v1 and every group version with resources, and serves their documents', async () => {
  const index = await srv.api('GET', '/openapi/v3');
  // Exactly the group versions whose discovery lists resources.
  const withResources = ['api/v1'];
  for (const group of (await srv.api('GET', '/apis')).body.groups as { versions: { groupVersion: string }[] }[]) {
    for (const { groupVersion } of group.versions) {
      const list = await srv.api('GET', `/apis/${groupVersion}`);
      if ((list.body.resources as { name: string }[]).some((r) => !r.name.includes('/')))
        withResources.push(`apis/${groupVersion}`);
    }
  }
  expect(Object.keys(index.body.paths).sort()).toEqual(withResources.sort());
  expect(index.body.paths).toHaveProperty(['apis/apps/v1']);
  const url = index.body.paths['api/v1'].serverRelativeURL as string;
  expect(url).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  const doc = await srv.api('GET', url);
  expect(doc.headers['cache-control']).toBe('public, immutable');
  expect(doc.body.openapi).toBe('3.0.0');
  const pod = doc.body.components.schemas['io.k8s.api.core.v1.Pod'];
  expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }]);
  const containers = pod.properties.spec.properties.containers;
  expect(containers).toMatchObject({
    type: 'array',
    'x-kubernetes-patch-merge-key': 'name',
    'x-kubernetes-patch-strategy': 'merge',
  });
  expect(containers.items.properties.env).toMatchObject({
    'x-kubernetes-patch-merge-key': 'name',
    'x-kubernetes-patch-strategy': 'merge',
  });
  expect(containers.items.required).toEqual(['name']);
  expect(pod.properties.spec.properties.volumes['x-kubernetes-patch-strategy']).toBe('merge,retainKeys');
  // Server-side apply's list types, from the same metadata (upstream's tags).
  expect(containers).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
  expect(containers.items.properties.ports).toMatchObject({
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
  });
  expect(pod.properties.metadata.properties.finalizers['x-kubernetes-list-type']).toBe('set');
  expect(pod.properties.spec.properties.nodeSelector['x-kubernetes-map-type']).toBe('atomic');
  const patch = doc.body.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
  expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: '', version: 'v1', kind: 'Pod' });
  expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  expect(Object.keys(patch.requestBody.content)).toContain('application/strategic-merge-patch+json');
  expect(doc.body.paths['/api/v1/pods'].get.operationId).toBe('listAllNamespacesNamespacedPod');
  // Subresource operations, named as upstream names them.
  const ops = (path: string) =>
    Object.fromEntries(
      Object.entries(doc.body.paths[path])
        .filter(([k]) => k !== 'parameters')
        .map(([k, v]: [string, any]) => [k, v.operationId]),
    );
  expect(ops('/api/v1/namespaces/{namespace}/pods/{name}/status')).toEqual({
    get: 'readNamespacedPodStatus',
    put: 'replaceNamespacedPodStatus',
    patch: 'patchNamespacedPodStatus',
  });
  expect(ops('/api/v1/namespaces/{namespace}/pods/{name}/binding')).toEqual({ post: 'createNamespacedPodBinding' });
  expect(ops('/api/v1/namespaces/{name}/finalize')).toEqual({ put: 'replaceNamespaceFinalize' });
  const scale = doc.body.paths['/api/v1/namespaces/{namespace}/replicationcontrollers/{name}/scale'];
  expect(scale.get['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  expect(scale.put.requestBody.content['application/json'].schema).toEqual({
    $ref: '#/components/schemas/io.k8s.api.autoscaling.v1.Scale',
  });
  expect(doc.body.components.schemas['io.k8s.api.autoscaling.v1.Scale'].properties.spec.properties.replicas.type).toBe(
    'integer',
  );
  expect(
    doc.body.paths['/api/v1/namespaces/{namespace}/pods/{name}/binding'].post.requestBody.content['application/json']
      .schema,
  ).toEqual({
    $ref: '#/components/schemas/io.k8s.api.core.v1.Binding',
  });
  expect((await srv.api('GET', '/openapi/v3/apis/nothere.example.io/v1')).status).toBe(404);
});

it('describes kinds and fields for kubectl explain', async () => {
  const index = await srv.api('GET', '/openapi/v3');
  const doc = (await srv.api('GET', index.body.paths['api/v1'].serverRelativeURL)).body;
  const pod = doc.components.schemas['io.k8s.api.core.v1.Pod'];
  expect(pod.description).toMatch(/^Pod is a group of containers/);
  expect(pod.properties.metadata.properties.labels.description).toMatch(/label selectors/);
  expect(pod.properties.spec.description).toBe('Desired state of the Pod.');
  const containers = pod.properties.spec.properties.containers;
  expect(containers.description).toMatch(/^Containers of the pod/);
  expect(containers.items.properties.image.description).toMatch(/^Container image name/);
  expect(containers.items.properties.ports.items.properties.containerPort.description).toMatch(/pod's IP address/);
});

it('serves /openapi/v2 as JSON and as gnostic protobuf, with the PATCH fieldValidation parameter kubectl 1.27 looks for', async () => {
  const json = await srv.api('GET', '/openapi/v2');
  expect(json.headers['content-type']).toBe('application/json');
  expect(json.body.swagger).toBe('2.0');
  const pod = json.body.definitions['io.k8s.api.core.v1.Pod'];
  expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }]);
  expect(pod.properties.spec.properties.containers).toMatchObject({
    'x-kubernetes-patch-merge-key': 'name',
    'x-kubernetes-patch-strategy': 'merge',
  });
  expect(
    pod.properties.spec.properties.containers.items.properties.livenessProbe.properties.httpGet.properties.port,
  ).toMatchObject({ type: 'string', format: 'int-or-string' });
  const patch = json.body.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
  expect(patch.parameters.find((p: any) => p.name === 'fieldValidation')).toMatchObject({
    in: 'query',
    type: 'string',
  });
  expect(patch.parameters.find((p: any) => p.in === 'body')).toMatchObject({ name: 'body', required: true });
  expect(json.body.paths['/apis/security.platform.io/v1/securitycontextconstraints']).toBeDefined();

  const res = await request(srv.url + '/openapi/v2', {
    dispatcher: srv.agent,
    headers: {
      authorization: `Bearer ${TEST_TOKEN}`,
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    },
  });
  expect(res.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
  const proto = decodeSwaggerProtobuf(Buffer.from(await res.body.arrayBuffer()));
  expect(proto.swagger).toBe('2.0');
  const item = proto.paths.path.find((p: any) => p.name === '/api/v1/namespaces/{namespace}/pods/{name}').value;
  const gvk = item.patch.vendorExtension.find((e: any) => e.name === 'x-kubernetes-group-version-kind');
  expect(parseYaml(gvk.value.yaml)).toEqual({ group: '', version: 'v1', kind: 'Pod' });
  expect(item.patch.parameters.map((p: any) => p.parameter.nonBodyParameter?.queryParameterSubSchema?.name)).toContain(
    'fieldValidation',
  );
  const podDef = proto.definitions.additionalProperties.find((d: any) => d.name === 'io.k8s.api.core.v1.Pod').value;
  const spec = podDef.properties.additionalProperties.find((p: any) => p.name === 'spec').value;
  const containers = spec.properties.additionalProperties.find((p: any) => p.name === 'containers').value;
  expect(containers.type.value).toEqual(['array']);
  expect(Object.fromEntries(containers.vendorExtension.map((e: any) => [e.name, parseYaml(e.value.yaml)]))).toEqual({
    'x-kubernetes-patch-merge-key': 'name',
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
  });

  const cached = await srv.api('GET', '/openapi/v2', undefined, { 'if-none-match': String(json.headers.etag) });
  expect(cached.status).toBe(304);
  expect((await srv.api('GET', '/openapi/v2', undefined, { accept: 'text/html' })).status).toBe(406);
});
